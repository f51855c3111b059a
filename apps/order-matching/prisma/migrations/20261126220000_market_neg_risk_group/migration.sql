-- The neg-risk event a market belongs to (the catalog's negRiskMarketId, empty when not neg-risk): only
-- one market of such an event may resolve Yes. Rows written before hold '' until their next snapshot.
ALTER TABLE "markets" ADD COLUMN "neg_risk_market_id" TEXT NOT NULL DEFAULT '';
