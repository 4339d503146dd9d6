import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  @ApiProperty({ enum: ['healthy', 'unhealthy'] })
  status!: 'healthy' | 'unhealthy';
  @ApiProperty({ description: '"ok", or what went wrong reaching the database' })
  database!: string;
  @ApiProperty()
  version!: string;
  @ApiProperty()
  tasks!: number;
  @ApiProperty()
  uptime_seconds!: number;
}
