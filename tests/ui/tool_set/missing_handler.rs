use serde::Deserialize;
use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};

struct Db;

/// Look a word up.
#[derive(Tool, Deserialize)]
struct Define {
    word: String,
}

impl Handler<Db> for Define {
    type Output = String;
    async fn handle(self, _: &Db, _: &Invocation<'_>) -> Result<String, ToolError> {
        Ok(self.word)
    }
}

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
}

#[derive(ToolSet)]
enum Tools {
    Define(Define),
    Weather(GetWeather),
}

fn main() {
    let _runner = Runner::<Tools, Db>::new(Db);
}
