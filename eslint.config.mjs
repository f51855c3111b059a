import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/generated/**', '**/node_modules/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@exchange/*/*'], message: 'Import workspace packages from their root only.' }] },
      ],
    },
  },
  {
    // The matching core is pure: no framework, no IO, no clock (STYLE.md).
    files: ['apps/order-matching/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@nestjs/*', '@prisma/*', 'nats', 'ioredis', 'pg', 'node:*', '@exchange/*'], message: 'the matching core is pure.' }] },
      ],
      'no-restricted-globals': ['error', { name: 'Date', message: 'the core has no clock' }, { name: 'setTimeout', message: 'no timers in the core' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'the core is deterministic' }, { object: 'performance', property: 'now', message: 'no clock' }],
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@nestjs/*', '@prisma/*', 'nats', 'ioredis', 'pg'], message: 'contracts stay framework-free.' }] },
      ],
    },
  },
);
