import { ApiProperty } from '@nestjs/swagger';

export class ReplicaDto {
  @ApiProperty({ description: "This server process among the deployment's replicas (host, process id and a random suffix)" })
  id!: string;
  @ApiProperty({
    description:
      'Whether this replica runs the periodic jobs (idle-expiry and retention sweeps, session and rate-limit clean-up): one replica ' +
      'of a PostgreSQL deployment at a time, taken over by another within seconds when it stops; always true on SQLite',
  })
  leader!: boolean;
}

export class HealthDto {
  @ApiProperty({ enum: ['healthy', 'unhealthy'] })
  status!: 'healthy' | 'unhealthy';
  @ApiProperty({ description: '"ok", or what went wrong reaching the database' })
  database!: string;
  @ApiProperty({ enum: ['sqlite', 'postgresql'], description: 'Which database serves: the embedded SQLite file, or a PostgreSQL server (DATABASE_URL)' })
  database_kind!: 'sqlite' | 'postgresql';
  @ApiProperty()
  version!: string;
  @ApiProperty()
  tasks!: number;
  @ApiProperty()
  uptime_seconds!: number;
  @ApiProperty({ type: ReplicaDto })
  replica!: ReplicaDto;
}
