import { Logger } from '@nestjs/common';

// The middle tier builds services without an app: their start-up messages would go to Nest's console logger.
Logger.overrideLogger(false);
