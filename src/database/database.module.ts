import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from './database.service';
import { PostgresDatabase } from './postgres-database';
import { SqliteDatabase } from './sqlite-database';

/** The database DATABASE_URL names: a `file:` URL is SQLite's, a `postgresql://` one PostgreSQL's. */
@Global()
@Module({
  providers: [
    {
      provide: Database,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Database => (config.databaseKind === 'postgresql' ? new PostgresDatabase(config) : new SqliteDatabase(config)),
    },
  ],
  exports: [Database],
})
export class DatabaseModule {}
