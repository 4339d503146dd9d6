export { ReplicasModule } from './replicas.module';
export { ReplicaCoordination, type RateLimits, type ReplicaMessage } from './replica-coordination';
export { RateLimiter } from './rate-limiter';
