import { Controller, Get } from '@nestjs/common';

/** Public CLOB routes the clients call before trading. */
@Controller()
export class ClockController {
  /** Orders are CLOB V2 orders. */
  @Get('version')
  version() {
    return { version: 2 };
  }

  /** Unix seconds, for clients that sign with the server's time. */
  @Get('time')
  time() {
    return Math.floor(Date.now() / 1000);
  }
}
