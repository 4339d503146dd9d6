import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { TaskListDto } from './dto/task-summary.dto';
import { TaskCatalog } from './task-catalog.service';

@ApiTags('tasks')
@Controller('tasks')
export class TasksController {
  constructor(private readonly catalog: TaskCatalog) {}

  @Access.Public()
  @Get()
  @ApiOperation({ operationId: 'listTasks', summary: 'The task catalogue (no answers)' })
  @ApiOkResponse({ type: TaskListDto })
  list(): TaskListDto {
    return { tasks: this.catalog.summaries() };
  }
}
