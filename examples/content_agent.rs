//! The content agent of seed 002 with tools that run: a handler for each of its nine tools over a
//! data folder (style profiles, saved posts, the feedback tracker), its Returns as typed outputs
//! and its Error returns as JSON errors, its timeouts (`search_web` 10 s, Notion 15 s), run by
//! toolgen's `Runner` on model responses of every provider, turn by turn, offline.
//!
//! Run: `cargo run --example content_agent`
//!
//! Offline means: the responses are read from `examples/recorded/`, the data folder is a fresh
//! temporary one, the web search "calls" an API that never answers (so its 10 s timeout is what
//! the model reads), Notion is not configured, and time is Tokio's paused clock with a fixed
//! date, so the 10 s pass at once and every run prints the same.

#[path = "seed_tools/mod.rs"]
pub mod seed_tools;

use std::path::{Path, PathBuf};

use seed_tools::ghostpen::{
    FeedbackCategory, ListProfiles, PlatformFilter, ReadNotionPage, ReadPastPosts,
    ReadStyleProfile, SaveToFile, SearchWeb, Tools, TrackFeedback, UpdateStyleProfile,
    WriteToNotion,
};
use serde::Serialize;
use serde_json::{Map, Value, json};
use toolgen::{Handler, Invocation, Provider, Runner, ToolCall, ToolError, ToolSchema};

/// What every handler shares: the agent's data folder and its settings.
pub struct Agent {
    /// `data/` of seed 002: `profiles/`, `output/generated/`, `feedback-tracker.json`.
    pub data: PathBuf,
    /// `NOTION_TOKEN`, if configured.
    pub notion_token: Option<String>,
    /// The clock, fixed so that runs print the same.
    pub now: &'static str,
}

impl Agent {
    fn profiles(&self) -> PathBuf {
        self.data.join("profiles")
    }

    fn posts(&self) -> PathBuf {
        self.data.join("output").join("generated")
    }

    /// The profile names there are, sorted.
    fn profile_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.profiles())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                name.strip_suffix(".json").map(str::to_owned)
            })
            .collect();
        names.sort();
        names
    }

    /// A profile's JSON, or seed 002's error return.
    fn read_profile(&self, name: &str) -> Result<Value, ToolError> {
        let path = self.profiles().join(format!("{name}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            let available = self.profile_names();
            return Err(ToolError::json(json!({
                "success": false,
                "error": "profile_not_found",
                "message": format!("Profile '{name}' not found. Available profiles: {}", available.join(", ")),
                "available_profiles": available,
            })));
        };
        serde_json::from_str(&text).map_err(|error| {
            ToolError::json(json!({
                "success": false,
                "error": "profile_invalid",
                "message": format!("Profile '{name}' is not valid JSON: {error}"),
            }))
        })
    }
}

/// `read_style_profile`'s Returns.
#[derive(Serialize, ToolSchema)]
pub struct ProfileRead {
    success: bool,
    profile: Value,
}

impl Handler<Agent> for ReadStyleProfile {
    type Output = ProfileRead;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<ProfileRead, ToolError> {
        Ok(ProfileRead {
            success: true,
            profile: agent.read_profile(&self.profile_name)?,
        })
    }
}

impl Handler<Agent> for UpdateStyleProfile {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        let mut profile = agent.read_profile(&self.profile_name)?;
        if profile["type"] == "reference" {
            return Err(ToolError::json(json!({
                "success": false,
                "error": "reference_profile",
                "message": "Reference профілі не оновлюються автоматично: оновіть вручну.",
            })));
        }
        let version = profile["version"].as_u64().unwrap_or(0) + 1;
        for (path, value) in &self.changes {
            set_path(&mut profile, path, value.clone());
        }
        let entry = json!({
            "version": version,
            "date": agent.now,
            "action": "updated",
            "description": self.reason,
        });
        profile["version"] = json!(version);
        profile["updated_at"] = json!(agent.now);
        match profile["changelog"].as_array_mut() {
            Some(changelog) => changelog.push(entry.clone()),
            None => profile["changelog"] = json!([entry]),
        }
        let path = agent.profiles().join(format!("{}.json", self.profile_name));
        std::fs::write(&path, serde_json::to_string_pretty(&profile)?)?;
        Ok(json!({
            "success": true,
            "version": version,
            "changes_applied": self.changes.keys().collect::<Vec<_>>(),
            "changelog_entry": entry,
        }))
    }
}

/// Sets `value` at a dot-notation `path` (`voice.formality`) of `target`, making objects on the
/// way.
fn set_path(target: &mut Value, path: &str, value: Value) {
    let mut at = target;
    for key in path.split('.') {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        at = &mut at[key];
    }
    *at = value;
}

impl Handler<Agent> for ListProfiles {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        let profiles: Vec<Value> = agent
            .profile_names()
            .into_iter()
            .filter_map(|name| {
                let profile = agent.read_profile(&name).ok()?;
                Some(json!({
                    "name": name,
                    "type": profile["type"],
                    "language": profile["language"],
                    "version": profile["version"],
                    "updated_at": profile["updated_at"],
                    "tone_summary": profile["tone_summary"],
                }))
            })
            .collect();
        Ok(json!({"success": true, "profiles": profiles}))
    }
}

impl Handler<Agent> for ReadPastPosts {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        let mut posts = Vec::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(agent.posts())
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file)?;
            let field = |key: &str| {
                text.lines()
                    .find_map(|line| line.strip_prefix(&format!("{key}: ")))
                    .unwrap_or_default()
                    .to_owned()
            };
            let platform = field("platform");
            let wanted = match self.platform {
                PlatformFilter::All => true,
                ref filter => json!(filter) == json!(platform),
            };
            let lower = text.to_lowercase();
            if wanted
                && self
                    .keywords
                    .iter()
                    .any(|k| lower.contains(&k.to_lowercase()))
            {
                let body = text.rsplit("---\n").next().unwrap_or_default();
                posts.push(json!({
                    "file": file.file_name().map(|n| n.to_string_lossy().into_owned()),
                    "platform": platform,
                    "topic": field("topic"),
                    "created": field("created"),
                    "profile_used": field("profile_used"),
                    "preview": body.chars().take(200).collect::<String>(),
                }));
            }
        }
        let total_found = posts.len();
        posts.truncate(self.limit as usize);
        Ok(json!({"success": true, "posts": posts, "total_found": total_found}))
    }
}

impl Handler<Agent> for SaveToFile {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        let folder = agent.posts();
        std::fs::create_dir_all(&folder)?;
        let platform = json!(self.platform);
        let platform = platform.as_str().unwrap_or("post");
        let slug: String = self
            .topic
            .to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("-")
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let date = agent.now.get(..10).unwrap_or(agent.now);
        let stem = format!("{date}-{slug}-{platform}");
        let mut path = folder.join(format!("{stem}.md"));
        let mut n = 2;
        while path.exists() {
            path = folder.join(format!("{stem}-{n}.md"));
            n += 1;
        }
        let text = format!(
            "---\nplatform: {platform}\ntopic: {}\ncreated: {}\nprofile_used: {}\n---\n{}\n",
            self.topic, agent.now, self.profile_used, self.content
        );
        std::fs::write(&path, text)?;
        Ok(json!({"success": true, "file_path": display(&path, &agent.data)}))
    }
}

/// `path` as seed 002 writes it: from `data/`.
fn display(path: &Path, data: &Path) -> String {
    let relative = path.strip_prefix(data).unwrap_or(path);
    format!("data/{}", relative.display())
}

impl Handler<Agent> for SearchWeb {
    type Output = Value;
    async fn handle(self, _: &Agent, call: &Invocation<'_>) -> Result<Value, ToolError> {
        // Offline: the search API never answers. `#[tool(timeout = "10s")]` ends the call, and
        // the model reads that the search timed out (seed 002: it goes on without the data).
        call.cancelled().await;
        Err(ToolError::new(format!(
            "search for `{}` cancelled",
            self.query
        )))
    }
}

/// Seed 002's error return when Notion is not configured.
fn notion_not_configured() -> ToolError {
    ToolError::json(json!({
        "success": false,
        "error": "notion_not_configured",
        "message": "Notion не налаштований. Додайте NOTION_TOKEN до .env файлу.",
    }))
}

impl Handler<Agent> for ReadNotionPage {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        if agent.notion_token.is_none() {
            return Err(notion_not_configured());
        }
        Err(ToolError::new(format!(
            "page `{}`: this example does not call Notion",
            self.page_id
        )))
    }
}

impl Handler<Agent> for WriteToNotion {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        if agent.notion_token.is_none() {
            return Err(notion_not_configured());
        }
        Err(ToolError::new(format!(
            "`{}`: this example does not call Notion",
            self.title
        )))
    }
}

impl Handler<Agent> for TrackFeedback {
    type Output = Value;
    async fn handle(self, agent: &Agent, _: &Invocation<'_>) -> Result<Value, ToolError> {
        let path = agent.data.join("feedback-tracker.json");
        let mut tracker: Value = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)?,
            Err(_) => json!({}),
        };
        let category = json!(self.category);
        let key = category.as_str().unwrap_or("other");
        let entry = &mut tracker[key];
        let count = entry["count"].as_u64().unwrap_or(0) + 1;
        entry["count"] = json!(count);
        entry["last_seen"] = json!(agent.now);
        let record = json!({"date": agent.now.get(..10), "raw": self.raw_feedback});
        match entry["history"].as_array_mut() {
            Some(history) => {
                history.push(record);
                let excess = history.len().saturating_sub(10);
                history.drain(..excess);
            }
            None => entry["history"] = json!([record]),
        }
        std::fs::write(&path, serde_json::to_string_pretty(&tracker)?)?;
        let mut out = json!({
            "success": true,
            "category": key,
            "count": count,
            "threshold_reached": count >= 3,
        });
        if count >= 3 && self.category != FeedbackCategory::Other {
            out["suggestion"] = json!(format!(
                "Користувач {count} рази дав фідбек `{key}`. Запропонуй оновити style profile."
            ));
        }
        Ok(out)
    }
}

/// A fresh data folder with seed 002's two profiles: the user's own and a reference one.
pub fn data_folder() -> std::io::Result<PathBuf> {
    let data = std::env::temp_dir().join(format!("toolgen-content-agent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(data.join("profiles"))?;
    let profiles = [
        json!({"name": "default", "type": "personal", "language": "uk", "version": 3,
               "updated_at": "2026-02-09T10:00:00Z", "tone_summary": "дружній, трохи іронічний",
               "voice": {"formality": "formal"}}),
        json!({"name": "competitor-maria", "type": "reference", "language": "uk", "version": 1,
               "updated_at": "2026-01-15T09:00:00Z", "tone_summary": "експертний, стриманий"}),
    ];
    for profile in profiles {
        let name = profile["name"].as_str().unwrap_or("profile");
        std::fs::write(
            data.join("profiles").join(format!("{name}.json")),
            serde_json::to_string_pretty(&profile)?,
        )?;
    }
    Ok(data)
}

/// The model responses, by provider, in the order the turns come.
pub fn turns() -> Vec<(Provider, Value)> {
    let read = |text: &str| serde_json::from_str::<Value>(text).expect("recorded JSON");
    let mut turns = vec![
        (
            Provider::Anthropic,
            read(include_str!("recorded/anthropic.json")),
        ),
        (
            Provider::OpenAiChat,
            read(include_str!("recorded/openai_chat.json")),
        ),
        (
            Provider::OpenAiResponses,
            read(include_str!("recorded/openai_responses.json")),
        ),
        (Provider::Gemini, read(include_str!("recorded/gemini.json"))),
        (Provider::Mcp, read(include_str!("recorded/mcp.json"))),
    ];
    if let Value::Array(more) = read(include_str!("recorded/content_agent_anthropic.json")) {
        turns.extend(more.into_iter().map(|turn| (Provider::Anthropic, turn)));
    }
    turns
}

/// Runs every turn with `runner`: for each, the calls and what goes back to the model.
pub async fn run_turns(
    runner: &mut Runner<Tools, Agent>,
) -> Vec<(Provider, Vec<ToolCall>, Vec<Value>)> {
    let mut out = Vec::new();
    for (provider, response) in turns() {
        let calls = match ToolCall::parse(provider, &response) {
            Ok(calls) => calls,
            Err(error) => {
                println!("!! {provider}: {error}");
                continue;
            }
        };
        let turn = runner.run(provider, &calls).await;
        if let Some(stop) = turn.stop() {
            println!("!! stop: {stop}");
        }
        let messages = turn.next_messages(&response).unwrap_or_else(|error| {
            println!("!! {provider}: {error}");
            turn.messages()
        });
        out.push((provider, calls, messages));
    }
    out
}

fn main() -> std::io::Result<()> {
    let data = data_folder()?;
    let agent = Agent {
        data: data.clone(),
        notion_token: None,
        now: "2026-02-08T14:30:00Z",
    };
    let mut runner = Runner::<Tools, Agent>::new(agent).concurrency(4);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()?;
    for (provider, calls, messages) in runtime.block_on(run_turns(&mut runner)) {
        let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
        println!("== {provider}: {}", names.join(", "));
        for message in messages {
            println!("<- {}", serde_json::to_string(&message).unwrap_or_default());
        }
        println!();
    }
    let _ = std::fs::remove_dir_all(&data);
    Ok(())
}
