use serde::Deserialize;
use toolgen::Tool;

// The misspelt key is the only error: the name made from `Погода` is not checked, since `nmae`
// was meant to replace it.
/// Узнать погоду в городе.
#[derive(Tool, Deserialize)]
#[tool(nmae = "pogoda")]
struct Погода {
    город: String,
}

fn main() {}
