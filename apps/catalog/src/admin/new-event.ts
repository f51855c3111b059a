import type { CreateEventInput, CreateMarketInput } from '@exchange/contracts';

interface Flags {
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
}

/** A market to create: what an operator gives, plus what an upstream import carries over. */
export interface NewMarket extends CreateMarketInput {
  mirrorConditionId?: string;
  mirrorTokenIds?: [string, string];
  flags?: Flags & { acceptingOrders?: boolean };
}

export interface NewEvent extends Omit<CreateEventInput, 'markets'> {
  markets: NewMarket[];
  mirrorId?: string;
  flags?: Flags;
}
