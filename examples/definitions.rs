//! The tools of the design documents in `../shared/seeds/`, as each provider's API expects them
//! in a request's tool list.
//!
//! ```text
//! cargo run --example definitions
//! ```
//!
//! The types are in `seed_tools/mod.rs`: read them beside this output.

mod seed_tools;

use toolgen::Provider;

fn main() {
    for seed in &seed_tools::SEEDS {
        let names: Vec<&str> = seed.tools.iter().map(|tool| tool.name).collect();
        println!("// {} ({}): {}", seed.file, seed.title, names.join(", "));
    }
    println!();
    for provider in Provider::ALL {
        let tools = seed_tools::definitions(provider);
        println!("// {provider}: {} tools", tools.len());
        let json = serde_json::to_string_pretty(&tools).expect("definitions are JSON values");
        println!("{json}\n");
    }
}
