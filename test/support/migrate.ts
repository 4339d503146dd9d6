export { migrateDatabase } from '../../src/prisma/migrate';
