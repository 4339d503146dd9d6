import { ApiProperty } from '@nestjs/swagger';

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
}
