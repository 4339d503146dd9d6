import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { Authenticator } from './authenticator';

@Module({ imports: [TenantsModule], providers: [Authenticator], exports: [Authenticator] })
export class AuthModule {}
