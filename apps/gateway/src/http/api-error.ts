import { HttpException } from '@nestjs/common';
import { fail, type ErrorBody, type ErrorCode, type Failure } from '@exchange/contracts';

/** An error answered with the error body of SPEC.md and its status. */
export class ApiError extends HttpException {
  constructor(readonly failure: Failure) {
    super(failure.body, failure.status);
  }

  static of(code: ErrorCode, message: string, retryAfterSeconds?: number): ApiError {
    return new ApiError(fail(code, message, retryAfterSeconds));
  }

  get body(): ErrorBody {
    return this.failure.body;
  }
}
