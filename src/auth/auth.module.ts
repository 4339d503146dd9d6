import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { Authenticator } from './authenticator';
import { KeyHashRepository } from './key-hash.repository';
import { RequestAuthentication } from './request-authentication';

@Module({ imports: [TenantsModule], providers: [Authenticator, KeyHashRepository, RequestAuthentication], exports: [Authenticator, RequestAuthentication] })
export class AuthModule {}
