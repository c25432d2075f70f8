//! Types that hold each other (issue 11, item 4): a field marked `#[tool(recursive)]` leads back
//! to a type that holds the field's type, and is written as a `$ref` to that type's entry under
//! the root's `$defs`. Through it, parsing still strips `null`s, fills defaults and checks
//! constraints at every depth.

mod common;
mod dialect_check;

use std::collections::BTreeMap;

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{Dialect, Provider, Rule, Tool, ToolSchema};

/// A folder.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Folder {
    #[tool(length(min = 1, max = 40))]
    pub name: String,
    #[serde(default)]
    pub hidden: bool,
    pub files: Vec<File>,
}

/// A file, and the folder it is in.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct File {
    pub name: String,
    #[tool(default = 420)]
    #[serde(default)]
    pub mode: u32,
    #[tool(recursive)]
    #[serde(default)]
    pub parent: Option<Box<Folder>>,
}

/// Look at a file.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Inspect {
    pub file: File,
}

fn folder_entry() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 40},
            "hidden": {"type": "boolean", "default": false},
            "files": {"type": "array", "items": file_schema()},
        },
        "required": ["name", "files"],
        "description": "A folder.",
    })
}

fn file_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "mode": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "default": 420},
            "parent": {"$ref": "#/$defs/Folder"},
        },
        "required": ["name"],
        "description": "A file, and the folder it is in.",
    })
}

#[test]
fn a_cycle_is_cut_where_it_is_marked_and_the_type_behind_is_written_once() {
    let schema: Value = serde_json::from_str(Inspect::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"file": file_schema()},
            "required": ["file"],
            "$defs": {"Folder": folder_entry()},
        })
    );
    // Each type on its own: the file names the folder's entry; the folder, which leads to
    // itself through its files, is written inline and again under `$defs`.
    let file: Value = serde_json::from_str(&<File as ToolSchema>::json_schema()).unwrap();
    assert_eq!(file["$defs"], json!({"Folder": folder_entry()}));
    let folder: Value = serde_json::from_str(&<Folder as ToolSchema>::json_schema()).unwrap();
    assert_eq!(folder["$defs"], json!({"Folder": folder_entry()}));
    jsonschema::meta::validate(&folder).unwrap();
}

fn sample() -> Inspect {
    Inspect {
        file: File {
            name: "notes.md".into(),
            mode: 384,
            parent: Some(Box::new(Folder {
                name: "docs".into(),
                hidden: true,
                files: vec![File {
                    name: "todo.md".into(),
                    mode: 420,
                    parent: None,
                }],
            })),
        },
    }
}

#[test]
fn values_round_trip_through_the_cycle_in_every_dialect() {
    common::check_round_trip(&sample());
    common::check_rejected::<Inspect>(json!({"file": {"name": "a", "parent": {"name": "d"}}}));
    common::check_rejected::<Inspect>(
        json!({"file": {"name": "a", "parent": {"name": "d", "files": [{"mode": 1}]}}}),
    );
}

#[test]
fn nulls_are_stripped_and_defaults_filled_behind_the_cycle() {
    let args = json!({
        "file": {
            "name": "a",
            "mode": null,
            "parent": {
                "name": "d",
                "hidden": null,
                "files": [{"name": "b", "parent": {"name": "e", "hidden": null, "files": []}}],
            },
        },
    });
    let parsed = Inspect::parse_args(&args.to_string()).unwrap();
    let parent = parsed.file.parent.as_deref().unwrap();
    assert_eq!(parsed.file.mode, 420);
    assert!(!parent.hidden);
    assert_eq!(parent.files[0].mode, 420);
    assert_eq!(parent.files[0].parent.as_deref().unwrap().name, "e");
}

#[test]
fn constraints_are_checked_behind_the_cycle() {
    let args = json!({
        "file": {"name": "a", "parent": {"name": "d", "files": [{"name": "b", "parent": {"name": "", "files": []}}]}},
    });
    let error = Inspect::parse_args(&args.to_string())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("file.parent.files[0].parent.name"),
        "{error}"
    );
}

/// Teams, their members and projects: a cycle through an internally tagged enum, and one of
/// three types through a map.
pub mod org {
    use super::*;

    /// A team.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Team {
        pub name: String,
        pub members: Vec<Member>,
        pub projects: BTreeMap<String, Project>,
    }

    /// Someone on a team, or a team within it.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum Member {
        /// A person.
        Person { name: String },
        /// A team within the team.
        Subteam {
            #[tool(recursive)]
            team: Box<Team>,
        },
    }

    /// A project.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Project {
        pub milestones: Vec<Milestone>,
    }

    /// A milestone, and the team that owns it.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Milestone {
        pub due: String,
        #[tool(recursive)]
        pub owner: Option<Box<Team>>,
    }
}

/// A type named `Folder` too, in a cycle of its own.
pub mod other {
    use super::*;

    /// Another folder.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Folder {
        pub label: String,
        pub link: Option<Link>,
    }

    /// A link to a folder.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Link {
        #[tool(recursive)]
        pub to: Box<Folder>,
    }
}

/// Plan the work.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Plan {
    pub team: org::Team,
    pub file: File,
    pub link: other::Link,
}

fn plan() -> Plan {
    use org::*;
    let mut projects = BTreeMap::new();
    projects.insert(
        "launch".to_owned(),
        Project {
            milestones: vec![Milestone {
                due: "May".into(),
                owner: Some(Box::new(Team {
                    name: "ops".into(),
                    members: vec![Member::Person { name: "Ada".into() }],
                    projects: BTreeMap::new(),
                })),
            }],
        },
    );
    Plan {
        team: Team {
            name: "core".into(),
            members: vec![
                Member::Person { name: "Lin".into() },
                Member::Subteam {
                    team: Box::new(Team {
                        name: "web".into(),
                        members: Vec::new(),
                        projects: BTreeMap::new(),
                    }),
                },
            ],
            projects,
        },
        file: sample().file,
        link: other::Link {
            to: Box::new(other::Folder {
                label: "x".into(),
                link: None,
            }),
        },
    }
}

#[test]
fn longer_cycles_and_cycles_through_enums_and_maps() {
    let schema: Value = serde_json::from_str(Plan::INPUT_SCHEMA).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    let mut keys: Vec<&str> = defs.keys().map(String::as_str).collect();
    keys.sort_unstable();
    // Two different types named `Folder` get two keys; each type is written once.
    assert_eq!(keys, ["Folder", "Folder-2", "Team"]);
    assert_eq!(
        schema["properties"]["link"]["properties"]["to"],
        json!({"$ref": "#/$defs/Folder-2"})
    );
    assert_eq!(defs["Folder-2"]["description"], json!("Another folder."));
    let owner = &defs["Team"]["properties"]["projects"]["additionalProperties"]["properties"]["milestones"]
        ["items"]["properties"]["owner"];
    assert_eq!(owner, &json!({"$ref": "#/$defs/Team"}));
    common::check_round_trip(&plan());
    common::check_rejected::<Plan>(json!({
        "team": {"name": "a", "members": [{"kind": "subteam", "team": {"name": "b"}}], "projects": {}},
        "file": {"name": "f"},
        "link": {"to": {"label": "x"}},
    }));
}

#[test]
fn every_provider_gets_the_definitions() {
    for provider in Provider::ALL {
        let definition: Value = serde_json::from_str(Plan::definition_json(provider)).unwrap();
        assert!(definition.is_object(), "{provider:?}");
        serde_json::from_str::<Value>(Inspect::definition_json(provider)).unwrap();
    }
}

/// A section of a chapter: nothing of its own to strip, fill or check, so all of that is behind
/// the marked field.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Section {
    pub title: String,
    #[tool(recursive)]
    pub chapter: Option<Box<Chapter>>,
}

/// A chapter, and its sections.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Chapter {
    #[serde(default)]
    pub draft: bool,
    #[tool(default = 1, range(min = 1, max = 9))]
    #[serde(default)]
    pub level: u8,
    #[serde(default)]
    pub tags: std::collections::BTreeSet<String>,
    pub sections: Vec<Section>,
}

/// Outline a section.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Outline {
    pub section: Section,
}

#[test]
fn a_type_whose_only_work_is_behind_the_cycle_still_has_it_done() {
    let args = json!({
        "section": {"title": "a", "chapter": {"draft": null, "sections": [{"title": "b", "chapter": null}]}},
    });
    let parsed = Outline::parse_args(&args.to_string()).unwrap();
    let chapter = parsed.section.chapter.as_deref().unwrap();
    assert!(!chapter.draft);
    assert_eq!(chapter.level, 1);
    let too_deep = json!({"section": {"title": "a", "chapter": {"level": 12, "sections": []}}});
    let error = Outline::parse_args(&too_deep.to_string())
        .unwrap_err()
        .to_string();
    assert!(error.contains("section.chapter.level"), "{error}");
    let repeated = json!({
        "section": {"title": "a", "chapter": {"tags": ["x", "x"], "sections": []}},
    });
    let error = Outline::parse_args(&repeated.to_string())
        .unwrap_err()
        .to_string();
    assert!(error.contains("section.chapter.tags"), "{error}");
}

/// A topic: it holds itself, and through its links, other topics.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Topic {
    pub title: String,
    pub subtopics: Vec<Topic>,
    pub links: Vec<TopicLink>,
}

/// A link to a topic.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct TopicLink {
    #[tool(recursive)]
    pub to: Box<Topic>,
}

/// Follow a link.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Follow {
    pub link: TopicLink,
}

#[test]
fn a_type_that_holds_itself_and_is_behind_a_mark_has_one_entry() {
    let schema: Value = serde_json::from_str(Follow::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "link": {
                    "type": "object",
                    "properties": {"to": {"$ref": "#/$defs/Topic"}},
                    "required": ["to"],
                    "description": "A link to a topic.",
                },
            },
            "required": ["link"],
            "$defs": {
                "Topic": {
                    "type": "object",
                    "properties": {
                        "title": {"type": "string"},
                        "subtopics": {"type": "array", "items": {"$ref": "#/$defs/Topic"}},
                        "links": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {"to": {"$ref": "#/$defs/Topic"}},
                                "required": ["to"],
                                "description": "A link to a topic.",
                            },
                        },
                    },
                    "required": ["title", "subtopics", "links"],
                    "description": "A topic: it holds itself, and through its links, other topics.",
                },
            },
        })
    );
    let leaf = |title: &str| Topic {
        title: title.into(),
        subtopics: Vec::new(),
        links: Vec::new(),
    };
    common::check_round_trip(&Follow {
        link: TopicLink {
            to: Box::new(Topic {
                title: "a".into(),
                subtopics: vec![leaf("b")],
                links: vec![TopicLink {
                    to: Box::new(leaf("c")),
                }],
            }),
        },
    });
}

/// Look at a file, in OpenAI strict mode: the build looks behind the marked field, and finds
/// nothing OpenAI refuses there.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(strict = "openai")]
pub struct StrictInspect {
    pub file: File,
}

/// A shelf, whose labels are a map: what OpenAI strict mode refuses, behind a marked field.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Shelf {
    pub labels: std::collections::HashMap<String, String>,
    pub boxes: Vec<Crate>,
}

/// A crate on a shelf.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Crate {
    pub id: u32,
    #[tool(recursive)]
    pub shelf: Option<Box<Shelf>>,
}

/// Move a crate.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Move {
    pub item: Crate,
}

#[test]
fn openai_strict_mode_is_checked_behind_a_marked_field_as_the_rewrite_checks_it() {
    let strict = StrictInspect::input_schema(Dialect::OpenAiStrict).unwrap();
    let strict: Value = serde_json::from_str(strict).unwrap();
    assert_eq!(
        strict["$defs"]["Folder"]["additionalProperties"],
        json!(false)
    );
    common::check_round_trip(&StrictInspect {
        file: sample().file,
    });
    let tools = [
        common::test_tool::<Inspect>("Inspect"),
        common::test_tool::<StrictInspect>("StrictInspect"),
        common::test_tool::<Plan>("Plan"),
        common::test_tool::<Outline>("Outline"),
        common::test_tool::<Follow>("Follow"),
        common::test_tool::<Move>("Move"),
    ];
    let mut found = Vec::new();
    for tool in &tools {
        for dialect in [
            Dialect::OpenAiStrict,
            Dialect::AnthropicStrict,
            Dialect::Gemini,
        ] {
            let build = toolgen::__private::first_problem(tool.facts, dialect);
            let rewrite = toolgen::dialect_schema(tool.input_schema, dialect)
                .err()
                .map(|e| e.rule());
            // Both refuse, or neither; where both do, they may name different problems first
            // (the build goes rule by rule, the rewrite through the text).
            assert_eq!(
                build.is_some(),
                rewrite.is_some(),
                "{} in {dialect:?}: {build:?} / {rewrite:?}",
                tool.name
            );
            if dialect == Dialect::OpenAiStrict {
                assert_eq!(build.as_ref().map(|(rule, _)| *rule), rewrite);
                found.push((tool.name, build));
            }
        }
    }
    // The map behind `item.shelf` is found through the field; `Plan`'s map is its own.
    assert_eq!(
        found,
        [
            ("Inspect", None),
            ("StrictInspect", None),
            ("Plan", Some((Rule::Map, "team.projects".to_owned()))),
            ("Outline", None),
            ("Follow", None),
            ("Move", Some((Rule::Map, "item.shelf.labels".to_owned()))),
        ]
    );
}
