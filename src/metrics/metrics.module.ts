import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { StorageMetrics } from './storage-metrics';

/** Global: every module records into the app's one Metrics. */
@Global()
@Module({ controllers: [MetricsController], providers: [Metrics, StorageMetrics], exports: [Metrics] })
export class MetricsModule {}
