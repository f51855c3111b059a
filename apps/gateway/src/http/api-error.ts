import { HttpException } from '@nestjs/common';
import { fail, type ErrorBody, type ErrorCode, type Failure } from '@exchange/contracts';

/** An error answered with the error body of SPEC.md and its status, and headers of its own if any. */
export class ApiError extends HttpException {
  constructor(
    readonly failure: Failure,
    readonly headers: Record<string, string> = {},
  ) {
    super(failure.body, failure.status);
  }

  static of(code: ErrorCode, message: string, retryAfterSeconds?: number, headers?: Record<string, string>): ApiError {
    return new ApiError(fail(code, message, retryAfterSeconds), headers);
  }

  get body(): ErrorBody {
    return this.failure.body;
  }
}
