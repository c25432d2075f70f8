use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
// `src` is an absolute https: URL or a data: URI.
#[tool(icon = "icons/weather.png")]
#[tool(icon(src = "ftp://example.com/weather.png"))]
// Each part of an icon is checked, and all problems are reported.
#[tool(icon(
    src = "https://example.com/weather.svg",
    mime_type = "svg",
    sizes = "48 by 48",
    theme = "blue"
))]
// An unknown key, misspelt.
#[tool(icon(src = "https://example.com/weather.png", mimetype = "image/png"))]
// An icon without its `src`.
#[tool(icon(sizes = "any"))]
struct GetWeather {
    city: String,
}

fn main() {}

/// Get the tide.
#[derive(Tool, Deserialize)]
// Each part is a string; a part given twice; a key that is no icon's.
#[tool(icon(src = 5, sizes = "any", sizes = "48x48", colour = "blue"), description = "Tides.")]
#[tool(icon(src, theme = "dark"))]
// A title is a string.
#[tool(title = 5)]
struct GetTide {
    port: String,
}
