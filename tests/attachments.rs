//! Images and files in tool results, as each API takes them, and the note where one cannot.

use pretty_assertions::assert_eq;
use serde_json::json;
use toolgen::{Provider, ToolCall, ToolResult};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
const PDF: &str = "JVBERi0xLjQK";

fn result() -> ToolResult {
    ToolResult::text("The chart and the report.")
        .with_image(PNG, "image/png")
        .with_file(PDF, "application/pdf", Some("report.pdf"))
}

fn call() -> ToolCall {
    ToolCall::new("plot", "{}").with_id("call_1")
}

#[test]
fn anthropic_takes_image_and_document_blocks() {
    assert_eq!(
        result().render(Provider::Anthropic, &call()),
        json!({"type": "tool_result", "tool_use_id": "call_1", "content": [
            {"type": "text", "text": "The chart and the report."},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
             "title": "report.pdf"},
        ]})
    );
    // An error with only an image still says it failed, in words.
    let error = ToolResult::error("").with_image(PNG, "image/png");
    assert_eq!(
        error.render(Provider::Anthropic, &call())["content"][0],
        json!({"type": "text", "text": "the tool failed without a message"})
    );
    assert_eq!(error.render(Provider::Anthropic, &call())["is_error"], true);
}

#[test]
fn openai_chat_gets_a_note_for_each() {
    assert_eq!(
        result().render(Provider::OpenAiChat, &call()),
        json!({"role": "tool", "tool_call_id": "call_1", "content": concat!(
            "The chart and the report.\n",
            "[an image (image/png, 96 bytes of base64) is not shown: OpenAI Chat tool results do not carry it]\n",
            "[a file `report.pdf` (application/pdf, 12 bytes of base64) is not shown: OpenAI Chat tool results do not carry it]",
        )})
    );
}

#[test]
fn openai_responses_takes_input_items() {
    assert_eq!(
        result().render(Provider::OpenAiResponses, &call()),
        json!({"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_text", "text": "The chart and the report."},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")},
            {"type": "input_file", "file_data": format!("data:application/pdf;base64,{PDF}"),
             "filename": "report.pdf"},
        ]})
    );
}

#[test]
fn gemini_takes_inline_data_parts() {
    assert_eq!(
        result().render(Provider::Gemini, &call()),
        json!({"functionResponse": {
            "name": "plot",
            "id": "call_1",
            "response": {"output": "The chart and the report."},
            "parts": [
                {"inlineData": {"mimeType": "image/png", "data": PNG}},
                {"inlineData": {"mimeType": "application/pdf", "data": PDF, "displayName": "report.pdf"}},
            ],
        }})
    );
}

#[test]
fn mcp_takes_image_content_and_embedded_resources() {
    let json_result = ToolResult::json(json!({"points": 3})).with_image(PNG, "image/png");
    assert_eq!(
        json_result.render(Provider::Mcp, &call()),
        json!({
            "content": [
                {"type": "text", "text": r#"{"points":3}"#},
                {"type": "image", "data": PNG, "mimeType": "image/png"},
            ],
            "structuredContent": {"points": 3},
        })
    );
    let file = ToolResult::text("").with_file(PDF, "application/pdf", None);
    assert_eq!(
        file.render(Provider::Mcp, &call())["content"][1],
        json!({"type": "resource", "resource": {
            "uri": "attachment:///0", "mimeType": "application/pdf", "blob": PDF,
        }})
    );
    let request = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                         "params": {"name": "plot", "arguments": {}}});
    let call = &ToolCall::parse(Provider::Mcp, &request).unwrap()[0];
    assert_eq!(
        toolgen::mcp_response(call, &result())["result"]["content"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn a_result_without_attachments_renders_as_before() {
    let plain = ToolResult::text("21 °C");
    assert!(plain.attachments().is_empty());
    assert_eq!(
        plain.render(Provider::Anthropic, &call()),
        json!({"type": "tool_result", "tool_use_id": "call_1", "content": "21 °C"})
    );
    assert_eq!(
        plain.render(Provider::OpenAiResponses, &call()),
        json!({"type": "function_call_output", "call_id": "call_1", "output": "21 °C"})
    );
}

#[test]
fn anthropic_notes_what_it_does_not_take() {
    let result = ToolResult::text(" ")
        .with_image("AAAA", "image/bmp")
        .with_file("aGVsbG8=", "text/plain", Some("notes.txt"))
        .with_image(PNG, "image/png");
    assert_eq!(
        result.render(Provider::Anthropic, &call())["content"],
        json!([
            {"type": "text", "text": concat!(
                " \n",
                "[an image (image/bmp, 4 bytes of base64) is not shown: Anthropic tool results do not carry it]\n",
                "[a file `notes.txt` (text/plain, 8 bytes of base64) is not shown: Anthropic tool results do not carry it]",
            )},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ])
    );
    // Blank text alone is left out (the API refuses a blank text block).
    let blank = ToolResult::text("  ").with_image(PNG, "image/png");
    let content = blank.render(Provider::Anthropic, &call())["content"].clone();
    assert_eq!(content.as_array().unwrap().len(), 1);
    assert_eq!(content[0]["type"], "image");
}
