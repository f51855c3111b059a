import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { cursorOffset, describeIssues, END_CURSOR, FIRST_CURSOR, orderIdSchema, TRADING_PAGE_SIZE } from '@exchange/contracts';
import { ApiCaller } from '../auth/api-caller';
import { ApiError } from '../http/api-error';
import { L2AuthGuard } from '../auth/l2-auth.guard';
import { OrderScoringService } from './order-scoring.service';
import { OrdersService } from './orders.service';
import { objectBody } from '../http/object-body';
import type { QueryParam, QueryString } from '../http/query-string';

/** Trading routes of the CLOB surface; every one needs L2 authentication. */
@Controller()
@UseGuards(L2AuthGuard)
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly scoring: OrderScoringService,
  ) {}

  @Post('order')
  @HttpCode(200)
  async placeOne(@ApiCaller() caller: ApiCaller, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const answer = await this.orders.placeOne(caller, body);
    void reply.status(answer.status);
    if (answer.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(answer.retryAfterSeconds));
    return answer.body;
  }

  @Post('orders')
  @HttpCode(200)
  placeMany(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.placeMany(caller, body);
  }

  @Delete('order')
  cancelOne(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    const id = orderIdSchema.safeParse(objectBody(body).orderID);
    // Checked here so that the message names the client's field, not the engine's list (`orderIds.0`).
    if (!id.success) throw ApiError.of('invalid_request', `orderID: ${id.error.issues[0]!.message}`);
    return this.orders.cancel(caller, [id.data]);
  }

  @Delete('orders')
  cancelMany(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.cancel(caller, body);
  }

  @Delete('cancel-all')
  cancelAll(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    // A body is a mistake, most likely filters meant for /cancel-market-orders: read as none, it cancelled
    // every order of the account (found by fuzzing). No body, or `{}`, is what clients send.
    if (Object.keys(objectBody(body)).length > 0) {
      throw ApiError.of('invalid_request', "cancel-all takes no body: it cancels every order of the account (DELETE /cancel-market-orders cancels one market's)");
    }
    return this.orders.forward('matching.orders.cancel-all.v1', { caller });
  }

  @Delete('cancel-market-orders')
  cancelMarket(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.forward('matching.orders.cancel-market.v1', { ...objectBody(body), caller });
  }

  @Get('data/order/:id')
  order(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return this.orders.forward('matching.orders.get.v1', { caller, id });
  }

  @Get('data/orders')
  list(@ApiCaller() caller: ApiCaller, @Query() query: QueryString) {
    return this.orders.forward('matching.orders.list.v1', { ...query, caller });
  }

  /**
   * Orders of upstream's V1 exchange from before its V2 cutover (the stock clients' `getPreMigrationOrders`):
   * this exchange never ran V1, so the list is empty, paged as the other trading lists (a 404 until the
   * twenty-ninth session).
   */
  @Get('data/pre-migration-orders')
  preMigrationOrders(@Query('next_cursor') cursor: QueryParam) {
    const checked = cursorOffset.safeParse(cursor ?? FIRST_CURSOR);
    if (!checked.success) throw ApiError.of('invalid_request', describeIssues(checked.error));
    return { data: [], next_cursor: END_CURSOR, limit: TRADING_PAGE_SIZE, count: 0 };
  }

  @Get('data/trades')
  trades(@ApiCaller() caller: ApiCaller, @Query() query: QueryString) {
    return this.orders.forward('matching.trades.list.v1', { ...query, caller });
  }

  /** Whether one order earns liquidity rewards now (the stock client's `isOrderScoring`). */
  @Get('order-scoring')
  async orderScoring(@ApiCaller() caller: ApiCaller, @Query('order_id') orderId: QueryParam) {
    if (typeof orderId !== 'string') throw ApiError.of('invalid_request', 'order_id: give one order id');
    const id = orderIdSchema.safeParse(orderId);
    if (!id.success) throw ApiError.of('invalid_request', `order_id: ${id.error.issues[0]!.message}`);
    const scored = await this.scoring.scoring(caller, [orderId]);
    return { scoring: scored[orderId]! };
  }

  /** Whether each order of a list earns liquidity rewards now, by id (`areOrdersScoring`). */
  @Post('orders-scoring')
  @HttpCode(200)
  ordersScoring(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.scoring.scoring(caller, body);
  }

  @Get('balance-allowance')
  balance(@ApiCaller() caller: ApiCaller, @Query() query: QueryString) {
    return this.orders.forward('matching.balance.get.v1', { ...query, caller });
  }

  /**
   * Upstream refreshes its cache of on-chain balances and allowances here (clients call it before a SELL
   * right after a BUY fill); this ledger is never stale, so both spellings answer as GET /balance-allowance.
   */
  @Get('balance-allowance/update')
  refreshBalance(@ApiCaller() caller: ApiCaller, @Query() query: QueryString) {
    return this.balance(caller, query);
  }

  @Put('balance-allowance')
  putBalance(@ApiCaller() caller: ApiCaller, @Query() query: QueryString) {
    return this.balance(caller, query);
  }

  @Post('v1/heartbeats')
  @HttpCode(200)
  heartbeat(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.forward('matching.heartbeat.v1', { heartbeat_id: objectBody(body).heartbeat_id, caller });
  }

  /** Upstream's legacy spelling: no id, no body read; it keeps the key's session going (or starts one). */
  @Post('heartbeats')
  @HttpCode(200)
  async legacyHeartbeat(@ApiCaller() caller: ApiCaller) {
    await this.orders.forward('matching.heartbeat.v1', { caller, legacy: true });
    return { status: 'ok' };
  }

  @Post('split')
  @HttpCode(200)
  split(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.forward('matching.split.v1', { ...objectBody(body), caller });
  }

  @Post('merge')
  @HttpCode(200)
  merge(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.forward('matching.merge.v1', { ...objectBody(body), caller });
  }

  @Post('redeem')
  @HttpCode(200)
  redeem(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return this.orders.forward('matching.redeem.v1', { ...objectBody(body), caller });
  }
}
