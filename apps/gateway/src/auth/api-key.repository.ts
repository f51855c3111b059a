import { Injectable } from '@nestjs/common';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { AuthResources } from './auth-resources';

export interface ApiKeyRow {
  apiKey: string;
  address: string;
  nonce: string;
  secretEncrypted: Uint8Array;
  passphraseEncrypted: Uint8Array;
  createdAt: Date;
  revokedAt: Date | null;
}

/** The api_keys table; no rules here. */
@Injectable()
export class ApiKeyRepository {
  private readonly prisma: PrismaClient;

  constructor(resources: AuthResources) {
    this.prisma = resources.prisma;
  }

  findByKey(apiKey: string): Promise<ApiKeyRow | null> {
    return this.prisma.apiKey.findUnique({ where: { apiKey } });
  }

  findByAddressAndNonce(address: string, nonce: string): Promise<ApiKeyRow | null> {
    return this.prisma.apiKey.findUnique({ where: { address_nonce: { address, nonce } } });
  }

  /** Inserts the row; false when a row for this key or (address, nonce) exists already. */
  async insert(row: Omit<ApiKeyRow, 'createdAt' | 'revokedAt'>): Promise<boolean> {
    try {
      await this.prisma.apiKey.create({
        data: { ...row, secretEncrypted: Buffer.from(row.secretEncrypted), passphraseEncrypted: Buffer.from(row.passphraseEncrypted) },
      });
      return true;
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return false;
      throw error;
    }
  }

  /** How many keys of the address are not revoked. */
  countActive(address: string): Promise<number> {
    return this.prisma.apiKey.count({ where: { address, revokedAt: null } });
  }

  /** Keys of the address that are not revoked, oldest first. */
  async listActive(address: string): Promise<string[]> {
    const rows = await this.prisma.apiKey.findMany({
      where: { address, revokedAt: null },
      orderBy: [{ createdAt: 'asc' }, { apiKey: 'asc' }],
      select: { apiKey: true },
    });
    return rows.map((row) => row.apiKey);
  }

  /** Whether the address ever had a key, revoked or not: it proved it holds a private key that signs. */
  async everHadKey(address: string): Promise<boolean> {
    return (await this.prisma.apiKey.findFirst({ where: { address }, select: { apiKey: true } })) !== null;
  }

  /** Marks the key revoked; false when it was unknown or revoked already. */
  async revoke(apiKey: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { apiKey, revokedAt: null }, data: { revokedAt: at } });
    return count === 1;
  }
}
