import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { Authenticator } from './authenticator';
import { RequestAuthentication } from './request-authentication';

@Module({ imports: [TenantsModule], providers: [Authenticator, RequestAuthentication], exports: [Authenticator, RequestAuthentication] })
export class AuthModule {}
