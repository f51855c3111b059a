ALTER TABLE "orders" DROP CONSTRAINT "orders_pkey";
ALTER TABLE "orders" ADD CONSTRAINT "orders_pkey" PRIMARY KEY USING INDEX "orders_seq_key";
