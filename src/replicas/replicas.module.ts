import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PostgresCoordination } from './postgres-coordination';
import { ReplicaCoordination } from './replica-coordination';
import { SingleProcessCoordination } from './single-process-coordination';

/** How this process coordinates with the others on its database: by DATABASE_URL's kind, as DatabaseModule. */
@Global()
@Module({
  providers: [
    {
      provide: ReplicaCoordination,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ReplicaCoordination =>
        config.databaseKind === 'postgresql' ? new PostgresCoordination(config) : new SingleProcessCoordination(),
    },
  ],
  exports: [ReplicaCoordination],
})
export class ReplicasModule {}
