use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(Deserialize)]
struct City {
    name: String,
}

#[derive(Deserialize)]
struct Units {
    metric: bool,
}

/// A place on the map.
#[derive(ToolSchema, Deserialize)]
struct Spot {
    x: f64,
    y: f64,
}

/// Get the weather. Each type without a schema is reported once, at its field, however many
/// lists of the derive (properties, `null`s, facts, checks) name it beside the others.
#[derive(Tool, Deserialize)]
struct GetWeather {
    spot: Spot,
    city: City,
    around: Vec<Spot>,
    units: Units,
    nearby: Vec<City>,
}

fn main() {}
