//! What an upstream charges, as the operator priced each plugin's models (`[plugin.prices.MODEL]`):
//! exact amounts in picos of the deployment's currency (10⁻¹² of a unit), whole numbers that add up
//! without drift over a month of small calls. A price per million tokens may have six decimals, so a
//! token's price is a whole number of picos.

use super::api::Usage;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::BTreeMap;
use std::str::FromStr;

/// Picos in one unit of the currency.
pub const PICOS: i64 = 1_000_000_000_000;

/// The model key of a price that applies to every model of the plugin without one of its own.
pub const ANY_MODEL: &str = "*";

/// One model's price, per token and per request, in picos.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Price {
    pub input_per_token: i64,
    pub output_per_token: i64,
    pub per_request: i64,
}

impl Price {
    /// The cost of one call that used `usage`: `None` when a count it needs was not reported, since a
    /// guess would be wrong one way or the other.
    pub fn cost(&self, usage: Usage) -> Option<i64> {
        let part = |count: Option<u32>, per_token: i64| match (count, per_token) {
            (_, 0) => Some(0),
            (Some(n), price) => i64::from(n).checked_mul(price),
            (None, _) => None,
        };
        part(usage.input_tokens, self.input_per_token)?
            .checked_add(part(usage.output_tokens, self.output_per_token)?)?
            .checked_add(self.per_request)
    }
}

/// A plugin's prices by model (the upstream's model name, or [`ANY_MODEL`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prices(pub BTreeMap<String, Price>);

impl Prices {
    /// The price of `model`: its own, else the plugin's price for any model.
    pub fn of(&self, model: Option<&str>) -> Option<&Price> {
        model.and_then(|m| self.0.get(m)).or_else(|| self.0.get(ANY_MODEL))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A price as listings show it: decimal strings in the deployment's currency.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct PriceListing {
    /// Per million input tokens.
    pub input: String,
    /// Per million output tokens.
    pub output: String,
    /// Per call.
    pub request: String,
}

impl Price {
    pub fn listing(&self) -> PriceListing {
        PriceListing {
            input: amount(self.input_per_token.saturating_mul(1_000_000)),
            output: amount(self.output_per_token.saturating_mul(1_000_000)),
            request: amount(self.per_request),
        }
    }
}

/// Whether a plugin's calls of a model are priced: `free` (it can reach no upstream), `priced`, or
/// `unpriced` (recorded with their tokens and no cost).
pub fn pricing(billed: bool, prices: &Prices, model: Option<&str>) -> &'static str {
    match (billed, prices.of(model)) {
        (false, _) => "free",
        (true, Some(_)) => "priced",
        (true, None) => "unpriced",
    }
}

/// A price per million tokens, as written in the configuration, in picos per token: at most six
/// decimals, not negative.
pub fn per_million(text: &str) -> Result<i64, String> {
    // Small enough that no count of tokens a call reports can overflow the product.
    picos(text, 6, 1_000_000).and_then(|p| {
        if p <= i64::MAX / i64::from(u32::MAX) { Ok(p) } else { Err(format!("{text:?} is too large")) }
    })
}

/// A price per request, in picos: at most twelve decimals, not negative.
pub fn per_request(text: &str) -> Result<i64, String> {
    picos(text, 12, PICOS)
}

/// An amount of money in picos: at most `max_scale` decimals (so that the amount is exact), not
/// negative, scaled by `scale`.
fn picos(text: &str, max_scale: u32, scale: i64) -> Result<i64, String> {
    let amount = Decimal::from_str(text.trim()).map_err(|_| format!("{text:?} is not a decimal amount"))?;
    if amount.is_sign_negative() && !amount.is_zero() {
        return Err(format!("{text:?} is negative"));
    }
    if amount.normalize().scale() > max_scale {
        return Err(format!("{text:?} has more than {max_scale} decimals"));
    }
    amount
        .checked_mul(Decimal::from(scale))
        .and_then(|d| d.to_i64())
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// An amount in picos as a decimal string with no needless zeros (`0.00015`, `12`).
pub fn amount(picos: i64) -> String {
    Decimal::new(picos, 12).normalize().to_string()
}

/// An amount in picos as JSON: a decimal string, so that no client reads it as a float.
pub fn amount_json(picos: Option<i64>) -> serde_json::Value {
    picos.map_or(serde_json::Value::Null, |p| serde_json::Value::String(amount(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_exact() {
        assert_eq!(per_million("0.15"), Ok(150_000));
        assert_eq!(per_million("2.5"), Ok(2_500_000));
        assert_eq!(per_million("0.000001"), Ok(1));
        assert_eq!(per_million("0"), Ok(0));
        assert!(per_million("0.0000001").unwrap_err().contains("more than 6 decimals"));
        assert!(per_million("-1").unwrap_err().contains("negative"));
        assert!(per_million("abc").unwrap_err().contains("not a decimal"));
        assert!(per_million("99999999999999").unwrap_err().contains("too large"));
        assert_eq!(per_request("0.001"), Ok(1_000_000_000));
        assert_eq!(amount(150_000), "0.00000015");
        assert_eq!(amount(12 * PICOS), "12");
        let price = Price { input_per_token: 150_000, output_per_token: 600_000, per_request: 100_000_000 };
        assert_eq!(
            price.listing(),
            PriceListing { input: "0.15".into(), output: "0.6".into(), request: "0.0001".into() }
        );
        // A million calls of 0.1 of a cent add up to exactly 1000, where f64 drifts.
        let call = per_request("0.001").unwrap();
        assert_eq!(amount((0..1_000_000).map(|_| call).sum()), "1000");
    }

    #[test]
    fn a_cost_needs_the_counts_it_prices() {
        let price = Price { input_per_token: 150_000, output_per_token: 600_000, per_request: 0 };
        let usage = Usage { input_tokens: Some(1000), output_tokens: Some(500) };
        assert_eq!(price.cost(usage), Some(150_000_000 + 300_000_000));
        assert_eq!(price.cost(Usage { input_tokens: Some(1), output_tokens: None }), None);
        let flat = Price { per_request: 5, ..Price::default() };
        assert_eq!(flat.cost(Usage::default()), Some(5));
        let mut prices = Prices::default();
        prices.0.insert("a".into(), price);
        assert_eq!(prices.of(Some("a")), Some(&price));
        assert_eq!(prices.of(Some("b")), None);
        prices.0.insert(ANY_MODEL.into(), flat);
        assert_eq!(prices.of(Some("b")), Some(&flat));
        assert_eq!(prices.of(None), Some(&flat));
    }
}
