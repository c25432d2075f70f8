use serde::Deserialize;
use toolgen::Tool;

/// Узнать погоду в городе 🌦.
///
/// «Кавычки» и "quotes" — и\обратная черта.
#[derive(Tool, Deserialize)]
#[tool(name = "pogoda")]
struct Погода {
    /// Город, например «Рига».
    город: String,
}

fn main() {
    assert_eq!(Погода::NAME, "pogoda");
    assert_eq!(
        Погода::DESCRIPTION,
        "Узнать погоду в городе 🌦.\n\n«Кавычки» и \"quotes\" — и\\обратная черта."
    );
    assert_eq!(
        Погода::INPUT_SCHEMA,
        r#"{"type":"object","properties":{"город":{"type":"string","description":"Город, например «Рига»."}},"required":["город"]}"#
    );
}
