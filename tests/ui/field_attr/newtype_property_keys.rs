use serde::Deserialize;
use toolgen::ToolSchema;

/// A newtype's field takes the keywords of its value, not those of a property.
#[derive(ToolSchema, Deserialize)]
struct Email(#[tool(format = "email", default = "a@b.c", description = "An address")] String);

/// A length on a number is refused as on any field.
#[derive(ToolSchema, Deserialize)]
struct Count(#[tool(length(max = 3), nullable)] u32);

fn main() {}
