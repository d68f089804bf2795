import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { API_TOKEN_STORE, type ApiTokenStore } from '@lomo/auth';

@Injectable()
export class ApiLifecycle implements OnApplicationShutdown {
  constructor(@Inject(API_TOKEN_STORE) private readonly tokenStore: ApiTokenStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.tokenStore.close();
  }
}
