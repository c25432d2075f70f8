//! `examples/content_agent.rs`: the content agent's nine tools with handlers, run by the
//! `Runner` on every provider's responses, turn by turn. Checks what the model reads back and
//! what the handlers left in the data folder.

#![cfg(feature = "run")]

#[allow(dead_code)]
#[path = "../examples/content_agent.rs"]
mod content_agent;

use content_agent::{Agent, data_folder, run_turns};
use serde_json::{Value, json};
use toolgen::{Provider, Runner};

/// The `tool_result` blocks (Anthropic) or outputs of a turn, as (is an error, JSON or text).
fn anthropic_results(messages: &[Value]) -> Vec<(bool, Value)> {
    let user = messages.last().unwrap();
    user["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| {
            let text = block["content"].as_str().unwrap();
            let value = serde_json::from_str(text).unwrap_or_else(|_| json!(text));
            (block["is_error"] == true, value)
        })
        .collect()
}

#[test]
fn the_agent_runs_every_turn_of_every_provider() {
    let data = data_folder().unwrap();
    let agent = Agent {
        data: data.clone(),
        notion_token: None,
        now: "2026-02-08T14:30:00Z",
    };
    let mut runner = Runner::new(agent).concurrency(4);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let turns = runtime.block_on(run_turns(&mut runner));
    let providers: Vec<Provider> = turns.iter().map(|(p, _, _)| *p).collect();
    assert_eq!(
        providers,
        [
            Provider::Anthropic,
            Provider::OpenAiChat,
            Provider::OpenAiResponses,
            Provider::Gemini,
            Provider::Mcp,
            Provider::Anthropic,
            Provider::Anthropic,
            Provider::Anthropic,
        ]
    );
    // Every turn's search times out at its 10 s (the API never answers), as a result.
    let (_, _, first) = &turns[0];
    let results = anthropic_results(first);
    assert_eq!(
        results[0],
        (true, json!("the tool `search_web` timed out after 10s"))
    );
    // A profile that is not there: seed 002's error return, with the ones there are.
    let (_, _, profiles) = &turns[5];
    let results = anthropic_results(profiles);
    assert_eq!(
        results[0],
        (
            true,
            json!({
                "success": false,
                "error": "profile_not_found",
                "message": "Profile 'competitor-alex' not found. Available profiles: competitor-maria, default",
                "available_profiles": ["competitor-maria", "default"],
            })
        )
    );
    assert_eq!(results[1].1["profiles"].as_array().unwrap().len(), 2);
    // The third `too_formal` (one came through the Responses API) reaches the threshold.
    let (_, _, feedback) = &turns[6];
    let results = anthropic_results(feedback);
    assert_eq!(results[2].1["count"], 3);
    assert_eq!(results[2].1["threshold_reached"], true);
    // A reference profile is refused, the personal one updated, the post saved, and Notion,
    // not configured, says so.
    let (_, _, last) = &turns[7];
    let results = anthropic_results(last);
    assert_eq!(results[0].1["error"], "reference_profile");
    assert_eq!(results[1], (false, results[1].1.clone()));
    assert_eq!(results[1].1["version"], 4);
    assert_eq!(
        results[2].1["file_path"],
        "data/output/generated/2026-02-08-burnout-at-work-linkedin.md"
    );
    assert_eq!(results[3].1["error"], "notion_not_configured");
    // On disk: the update and the post.
    let profile: Value =
        serde_json::from_str(&std::fs::read_to_string(data.join("profiles/default.json")).unwrap())
            .unwrap();
    assert_eq!(profile["voice"]["formality"], "casual але експертний");
    assert_eq!(profile["changelog"][0]["version"], 4);
    let post = std::fs::read_to_string(
        data.join("output/generated/2026-02-08-burnout-at-work-linkedin.md"),
    )
    .unwrap();
    assert!(post.starts_with("---\nplatform: linkedin\ntopic: burnout at work\n"));
    std::fs::remove_dir_all(&data).unwrap();
}
