//! Keywords on a newtype's field (`struct Email(#[tool(format = "email")] String);`): the
//! newtype's schema is its content's with them, its arguments are checked as a field's are, and
//! the strict-mode facts see them.

use pretty_assertions::assert_eq;
use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// An e-mail address.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Email(#[tool(format = "email")] String);

/// A tag: lowercase letters, at most 12.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Tag(#[tool(pattern = "^[a-z]+$", length(max = 12))] String);

/// At least one recipient.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Recipients(#[tool(length(min = 1), example = ["ann@example.com"])] Vec<Email>);

/// A percentage.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Percent(#[tool(range(max = 100))] u8);

mod other_crate {
    /// A type of another crate, without a schema.
    #[derive(serde::Deserialize, Debug, PartialEq)]
    pub struct Address(pub String);
}

/// A mailbox of another crate's type, read as the string it is.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Mailbox(#[tool(schema = String, format = "email")] other_crate::Address);

/// At least one item.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct NonEmpty<T>(#[tool(length(min = 1))] Vec<T>);

/// Send a message.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(strict)]
struct SendMessage {
    to: Recipients,
    tags: Vec<Tag>,
    urgency: Percent,
    reply_to: Mailbox,
    urgencies: NonEmpty<Percent>,
}

#[test]
fn the_keywords_are_the_newtypes_schema() {
    assert_eq!(
        Email::json_schema(),
        r#"{"type":"string","format":"email","description":"An e-mail address."}"#
    );
    assert_eq!(
        Tag::json_schema(),
        r#"{"type":"string","maxLength":12,"pattern":"^[a-z]+$","description":"A tag: lowercase letters, at most 12."}"#
    );
    assert_eq!(
        Percent::json_schema(),
        r#"{"type":"integer","minimum":0,"maximum":100,"description":"A percentage."}"#
    );
    assert_eq!(
        Mailbox::json_schema(),
        r#"{"type":"string","format":"email","description":"A mailbox of another crate's type, read as the string it is."}"#
    );
    assert_eq!(
        <NonEmpty<bool>>::json_schema(),
        r#"{"type":"array","items":{"type":"boolean"},"minItems":1,"description":"At least one item."}"#
    );
    let recipients: serde_json::Value = serde_json::from_str(&Recipients::json_schema()).unwrap();
    assert_eq!(recipients["minItems"], 1);
    assert_eq!(
        recipients["examples"],
        serde_json::json!([["ann@example.com"]])
    );
    assert_eq!(recipients["items"]["format"], "email");
}

#[test]
fn arguments_are_checked_as_a_fields_are() {
    let good = r#"{"to":["ann@example.com"],"tags":["work"],"urgency":40,"reply_to":"bob@example.com","urgencies":[1]}"#;
    let parsed = SendMessage::parse_args(good).expect("valid arguments");
    assert_eq!(parsed.urgency, Percent(40));
    assert_eq!(
        parsed.reply_to.0,
        other_crate::Address("bob@example.com".into())
    );

    for (arguments, path) in [
        (
            r#"{"to":["a@b.c"],"tags":[],"urgency":1,"reply_to":"a@b.c","urgencies":[]}"#,
            "urgencies",
        ),
        (
            r#"{"to":["a@b.c"],"tags":[],"urgency":1,"reply_to":"a@b.c","urgencies":[101]}"#,
            "urgencies[0]",
        ),
        (
            r#"{"to":[],"tags":[],"urgency":1,"reply_to":"a@b.c","urgencies":[1]}"#,
            "to",
        ),
        (
            r#"{"to":["nobody"],"tags":[],"urgency":1,"reply_to":"a@b.c","urgencies":[1]}"#,
            "to[0]",
        ),
        (
            r#"{"to":["a@b.c"],"tags":["Work"],"urgency":1,"reply_to":"a@b.c","urgencies":[1]}"#,
            "tags[0]",
        ),
        (
            r#"{"to":["a@b.c"],"tags":["abcdefghijklm"],"urgency":1,"reply_to":"a@b.c","urgencies":[1]}"#,
            "tags[0]",
        ),
        (
            r#"{"to":["a@b.c"],"tags":[],"urgency":101,"reply_to":"a@b.c","urgencies":[1]}"#,
            "urgency",
        ),
    ] {
        let error = SendMessage::parse_args(arguments).expect_err(arguments);
        assert_eq!(error.path(), path, "{arguments}: {error}");
    }
}
