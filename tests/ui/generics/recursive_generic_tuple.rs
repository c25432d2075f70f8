use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
struct Chain<T>(T, Option<Box<Chain<T>>>);

fn main() {}
