use serde::Deserialize;
use toolgen::ToolSchema;

// A field without a name has no property of its own: `#[tool(..)]` is not read there.
#[derive(ToolSchema, Deserialize)]
struct Pair(#[tool(description = "The first.")] String, u8);

#[derive(ToolSchema, Deserialize)]
struct Team {
    members: Vec<Member>,
}

#[derive(ToolSchema, Deserialize)]
enum Member {
    Person(String),
    // A cycle is marked at a named field (`Team::members` here, or a struct variant's).
    Subteam(#[tool(recursive)] Box<Team>),
}

fn main() {}
