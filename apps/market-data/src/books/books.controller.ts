import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { RpcRequest } from '@exchange/contracts';
import { BooksService } from './books.service';

@Controller()
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @RpcRoute('marketdata.book.v1')
  async book(request: RpcRequest<'marketdata.book.v1'>) {
    return this.books.book(request.token_id);
  }

  @RpcRoute('marketdata.books.v1')
  async booksOf(request: RpcRequest<'marketdata.books.v1'>) {
    return this.books.booksOf(request);
  }

  @RpcRoute('marketdata.price.v1')
  async price(request: RpcRequest<'marketdata.price.v1'>) {
    return this.books.price(request.token_id, request.side);
  }

  @RpcRoute('marketdata.prices.v1')
  async prices(request: RpcRequest<'marketdata.prices.v1'>) {
    return this.books.prices(request);
  }

  @RpcRoute('marketdata.orders-scoring.v1')
  async scoring(request: RpcRequest<'marketdata.orders-scoring.v1'>) {
    return this.books.scoring(request.orders);
  }

  @RpcRoute('marketdata.midpoint.v1')
  async midpoint(request: RpcRequest<'marketdata.midpoint.v1'>) {
    return this.books.midpoint(request.token_id);
  }

  @RpcRoute('marketdata.midpoints.v1')
  async midpoints(request: RpcRequest<'marketdata.midpoints.v1'>) {
    return this.books.midpoints(request);
  }

  @RpcRoute('marketdata.spread.v1')
  async spread(request: RpcRequest<'marketdata.spread.v1'>) {
    return this.books.spread(request.token_id);
  }

  @RpcRoute('marketdata.spreads.v1')
  async spreads(request: RpcRequest<'marketdata.spreads.v1'>) {
    return this.books.spreads(request);
  }

  @RpcRoute('marketdata.last-trade-price.v1')
  async lastTradePrice(request: RpcRequest<'marketdata.last-trade-price.v1'>) {
    return this.books.lastTradePrice(request.token_id);
  }

  @RpcRoute('marketdata.last-trades-prices.v1')
  async lastTradesPrices(request: RpcRequest<'marketdata.last-trades-prices.v1'>) {
    return this.books.lastTradesPrices(request);
  }
}
