export { migrateDatabase } from '../../src/database/migrate';
