import { Controller, Get } from '@nestjs/common';

/** GET / and GET /ok: the gateway is up and serving. */
@Controller()
export class HealthController {
  @Get()
  root() {
    return 'OK';
  }

  @Get('ok')
  ok() {
    return 'OK';
  }
}
