// The till's checkout arithmetic: pure, integer minor units, every part adding up to its whole.
export { allocate, applyBps, applyPpm } from './allocate';
export { givesMoreAway, reviewDiscounts, type DiscountLimits, type DiscountReview } from './approval';
export { discountAmount, validateDiscount, type DiscountKind, type DiscountSpec } from './discount';
export { CheckoutError, describeAmount, describePercent, describeRatePpm, type CheckoutErrorCode } from './errors';
export { priceCheck, type CheckBreakdown, type CheckLine, type CheckLineInput, type CheckLines } from './pricing';
export { refundForUnits } from './refunds';
export { MAX_SPLIT_PARTS, splitByItems, splitEvenly, type SplitPart } from './split';
export { computeTaxes, taxInside, validateRules, type PricingRules, type TaxLine, type TaxRate, type TaxRounding, type TaxableLine, type TaxResult } from './tax';
export { GRATUITY_NAME_MAX, GRATUITY_PERCENT_MAX_BPS, gratuityApplies, gratuityLabel, gratuityOf, gratuityPartWith, gratuityShare, validateGratuityRule, type AutoGratuityRule, type Gratuity, type GratuityCheck } from './gratuity';
export { DEFAULT_TIP_PERCENTS_BPS, tipBase, tipFor } from './tips';
