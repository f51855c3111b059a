import { z } from 'zod';

export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
export const CONDITION_ID_PATTERN = /^0x[0-9a-fA-F]{64}$/;
export const TOKEN_ID_PATTERN = /^\d{1,78}$/;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SITE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const addressSchema = z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte hex address');
/**
 * An address that holds money or owns a wallet: not the zero address, for which nobody can sign (money
 * moved there could only be withdrawn by the operator; a probe bound it as a deposit wallet).
 */
export const accountAddressSchema = addressSchema.refine((address) => !/^0x0{40}$/.test(address), 'must not be the zero address: nobody can sign for it');
export const conditionIdSchema = z.string().regex(CONDITION_ID_PATTERN, 'must be a 0x-prefixed 32-byte hex id');
export const slugSchema = z
  .string()
  .max(200, 'slug must be at most 200 characters')
  .regex(SLUG_PATTERN, 'slug must be lowercase words joined by dashes');

/** A creator filter names a site either by its id or by its creator wallet address. */
export const creatorSchema = z
  .string({ error: 'creator must be a single string' })
  .refine((v) => ADDRESS_PATTERN.test(v) || SITE_ID_PATTERN.test(v), {
    message: 'creator must be a wallet address or a site id',
  });
