use serde::Deserialize;
use toolgen::ToolSchema;

mod other {
    pub struct Duration {
        pub secs: u64,
    }
}

#[derive(ToolSchema, Deserialize)]
#[serde(remote = "other::Duration")]
struct DurationDef {
    secs: u64,
}

fn main() {}
