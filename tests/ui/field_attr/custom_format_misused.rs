// `custom_format` is for a format toolgen does not know: a known one is `format`, a field has
// one format, and the name cannot be blank. A format toolgen does not know, with no close
// match, points to `custom_format`.
use toolgen::Tool;

/// Books a slot.
#[derive(Tool, serde::Deserialize)]
struct Book {
    #[tool(custom_format = "date-time")]
    at: String,
    #[tool(format = "email", custom_format = "x-email")]
    who: String,
    #[tool(custom_format = " ")]
    note: String,
    #[tool(format = "int64")]
    id: String,
}

fn main() {}
