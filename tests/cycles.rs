//! Types that hold each other without a mark (issue 11, item 4): the derive of each type finds,
//! in const evaluation, whether a type it holds leads back to it, and a type on a cycle is then
//! referred to by `$ref` wherever it is held; each is written once under the root's `$defs`. Through the cycle,
//! parsing still strips `null`s, fills defaults and checks constraints, and OpenAI strict mode is
//! checked at compile time.

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
    #[serde(default)]
    pub parent: Option<Box<Folder>>,
}

/// Look at a file.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Inspect {
    pub file: File,
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
fn each_type_of_a_cycle_is_written_once_and_referred_to_where_it_leads_back() {
    let schema: Value = serde_json::from_str(Inspect::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"file": {"$ref": "#/$defs/File"}},
            "required": ["file"],
            "$defs": {
                "File": file_schema(),
                "Folder": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 40},
                        "hidden": {"type": "boolean", "default": false},
                        "files": {"type": "array", "items": {"$ref": "#/$defs/File"}},
                    },
                    "required": ["name", "files"],
                    "description": "A folder.",
                },
            },
        })
    );
    jsonschema::meta::validate(&schema).unwrap();
    // Each type on its own holds the other by `$ref`, and its own entry comes along.
    for (text, defs) in [
        (<Folder as ToolSchema>::json_schema(), ["File", "Folder"]),
        (<File as ToolSchema>::json_schema(), ["File", "Folder"]),
    ] {
        let schema: Value = serde_json::from_str(&text).unwrap();
        let mut keys: Vec<&str> = schema["$defs"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, defs);
    }
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
fn nulls_defaults_and_constraints_hold_through_the_cycle() {
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

    let too_short = json!({
        "file": {"name": "a", "parent": {"name": "d", "files": [{"name": "b", "parent": {"name": "", "files": []}}]}},
    });
    let error = Inspect::parse_args(&too_short.to_string())
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
        Subteam { team: Box<Team> },
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
fn longer_cycles_through_enums_and_maps_and_two_types_of_one_name() {
    let schema: Value = serde_json::from_str(Plan::INPUT_SCHEMA).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    let mut keys: Vec<&str> = defs.keys().map(String::as_str).collect();
    keys.sort_unstable();
    // Every type that a type holding it leads back to has an entry; two different types named
    // `Folder` get two keys.
    assert_eq!(
        keys,
        [
            "File",
            "Folder",
            "Folder-2",
            "Link",
            "Member",
            "Milestone",
            "Project",
            "Team"
        ]
    );
    assert_eq!(
        defs["Team"]["properties"]["projects"]["additionalProperties"],
        json!({"$ref": "#/$defs/Project"})
    );
    assert_eq!(
        defs["Project"]["properties"]["milestones"]["items"],
        json!({"$ref": "#/$defs/Milestone"})
    );
    assert_eq!(
        defs["Team"]["properties"]["members"]["items"],
        json!({"$ref": "#/$defs/Member"})
    );
    assert_eq!(
        defs["Member"]["anyOf"][1]["properties"]["team"],
        json!({"$ref": "#/$defs/Team"})
    );
    assert_eq!(
        defs["Milestone"]["properties"]["owner"],
        json!({"$ref": "#/$defs/Team"})
    );
    // The `Folder` of `other` is the second one met.
    assert_eq!(defs["Folder-2"]["description"], json!("Another folder."));
    assert_eq!(
        defs["Link"]["properties"]["to"],
        json!({"$ref": "#/$defs/Folder-2"})
    );
    jsonschema::meta::validate(&schema).unwrap();
    common::check_round_trip(&plan());
    common::check_rejected::<Plan>(json!({
        "team": {"name": "a", "members": [{"kind": "subteam", "team": {"name": "b"}}], "projects": {}},
        "file": {"name": "f"},
        "link": {"to": {"label": "x"}},
    }));
    for provider in Provider::ALL {
        let definition: Value = serde_json::from_str(Plan::definition_json(provider)).unwrap();
        assert!(definition.is_object(), "{provider:?}");
    }
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
    pub to: Box<Topic>,
}

/// Follow a link.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Follow {
    pub link: TopicLink,
}

#[test]
fn a_type_that_holds_itself_and_another_that_leads_back() {
    let schema: Value = serde_json::from_str(Follow::INPUT_SCHEMA).unwrap();
    let link = json!({
        "type": "object",
        "properties": {"to": {"$ref": "#/$defs/Topic"}},
        "required": ["to"],
        "description": "A link to a topic.",
    });
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"link": {"$ref": "#/$defs/TopicLink"}},
            "required": ["link"],
            "$defs": {
                "Topic": {
                    "type": "object",
                    "properties": {
                        "title": {"type": "string"},
                        "subtopics": {"type": "array", "items": {"$ref": "#/$defs/Topic"}},
                        "links": {"type": "array", "items": {"$ref": "#/$defs/TopicLink"}},
                    },
                    "required": ["title", "subtopics", "links"],
                    "description": "A topic: it holds itself, and through its links, other topics.",
                },
                "TopicLink": link,
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

/// A page of items of any type.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}

/// A thread of posts.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Thread {
    pub posts: Page<Post>,
}

/// A post, and the threads that answer it.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Post {
    pub text: String,
    pub replies: Vec<Thread>,
}

/// Read a thread.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Read {
    pub thread: Thread,
}

#[test]
fn a_cycle_through_a_generic_type() {
    let schema: Value = serde_json::from_str(Read::INPUT_SCHEMA).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    // `Page<Post>` is held as it is (a generic type has no `static` to refer to); the post in
    // it is on the cycle, so it is referred to, and it refers to the thread, which leads back.
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Post", "Thread"]);
    assert_eq!(
        defs["Thread"]["properties"]["posts"]["properties"]["items"]["items"],
        json!({"$ref": "#/$defs/Post"})
    );
    let post = &defs["Post"];
    assert_eq!(
        post["properties"]["replies"]["items"],
        json!({"$ref": "#/$defs/Thread"})
    );
    assert_eq!(
        schema["properties"]["thread"],
        json!({"$ref": "#/$defs/Thread"}),
        "the root refers to the thread, a type of a cycle, which is written once"
    );
    common::check_round_trip(&Read {
        thread: Thread {
            posts: Page {
                items: vec![Post {
                    text: "hi".into(),
                    replies: vec![Thread {
                        posts: Page {
                            items: Vec::new(),
                            next: Some("b".into()),
                        },
                    }],
                }],
                next: None,
            },
        },
    });
}

/// Inspect, in OpenAI strict mode: the build looks through the cycle, and finds nothing OpenAI
/// refuses.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(strict = "openai")]
pub struct StrictInspect {
    pub file: File,
}

/// A shelf, whose labels are a map: what OpenAI strict mode refuses, inside a cycle.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Shelf {
    pub labels: std::collections::HashMap<String, String>,
    pub boxes: Vec<Crate>,
}

/// A crate on a shelf.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Crate {
    pub id: u32,
    pub shelf: Option<Box<Shelf>>,
}

/// Move a crate.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Move {
    pub item: Crate,
}

#[test]
fn strict_modes_are_checked_through_the_cycle_as_the_rewrite_checks_them() {
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
        common::test_tool::<Follow>("Follow"),
        common::test_tool::<Read>("Read"),
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
            } else {
                // A cycle is a `$ref`, which Anthropic strict mode and Gemini refuse.
                assert!(build.is_some(), "{} in {dialect:?}", tool.name);
            }
        }
    }
    assert_eq!(
        found,
        [
            ("Inspect", None),
            ("StrictInspect", None),
            ("Plan", Some((Rule::Map, "team.projects".to_owned()))),
            ("Follow", None),
            ("Read", None),
            ("Move", Some((Rule::Map, "item.shelf.labels".to_owned()))),
        ]
    );
}

/// Types that hold each other only through maps and sets named by their last names.
pub mod named {
    use std::collections::{BTreeMap, BTreeSet, HashMap};

    use super::*;

    /// A city.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct City {
        pub name: String,
        pub roads: BTreeMap<String, Road>,
        pub by_id: HashMap<String, Road>,
    }

    /// A road, and the cities at its ends.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, PartialOrd, Eq, Ord)]
    pub struct Road {
        pub length: u32,
        pub ends: BTreeSet<Box<End>>,
    }

    /// An end of a road.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, PartialOrd, Eq, Ord)]
    pub struct End {
        pub city: String,
        pub next: Option<BTreeMap<String, Road>>,
    }

    /// Find a way.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Route {
        pub from: City,
    }
}

#[test]
fn cycles_through_maps_and_sets_named_by_their_last_names() {
    use named::*;
    let schema: Value = serde_json::from_str(Route::INPUT_SCHEMA).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    let mut keys: Vec<&str> = defs.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["End", "Road"]);
    // The city is not on the cycle (no road leads back to it), and is written in place; the
    // roads it holds are, and it refers to them.
    let city = &schema["properties"]["from"]["properties"];
    assert_eq!(city["name"], json!({"type": "string"}));
    for map in ["roads", "by_id"] {
        assert_eq!(
            city[map]["additionalProperties"],
            json!({"$ref": "#/$defs/Road"})
        );
    }
    assert_eq!(
        defs["Road"]["properties"]["ends"]["items"],
        json!({"$ref": "#/$defs/End"})
    );
    let mut roads = BTreeMap::new();
    roads.insert(
        "north".to_owned(),
        Road {
            length: 3,
            ends: [Box::new(End {
                city: "b".into(),
                next: None,
            })]
            .into_iter()
            .collect(),
        },
    );
    common::check_round_trip(&Route {
        from: City {
            name: "a".into(),
            roads,
            by_id: std::collections::HashMap::new(),
        },
    });
}

/// Six types, each holding every other: each is written once, and the build does not walk
/// every path between them (which grows with the factorial of their number).
pub mod clique {
    use super::*;

    macro_rules! clique {
        ($($name:ident: $($other:ident),*;)*) => {$(
            /// A type of the clique.
            #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Default)]
            #[allow(non_snake_case)]
            pub struct $name {
                pub id: u32,
                $(#[serde(default)] pub $other: Vec<$other>,)*
            }
        )*};
    }

    clique! {
        A: B, C, D, E, F;
        B: A, C, D, E, F;
        C: A, B, D, E, F;
        D: A, B, C, E, F;
        E: A, B, C, D, F;
        F: A, B, C, D, E;
    }

    /// Walk the clique.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Walk {
        pub start: A,
    }
}

#[test]
fn every_type_holding_every_other() {
    use clique::*;
    let schema: Value = serde_json::from_str(Walk::INPUT_SCHEMA).unwrap();
    let mut keys: Vec<&str> = schema["$defs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["A", "B", "C", "D", "E", "F"]);
    assert_eq!(
        schema["$defs"]["C"]["properties"]["F"]["items"],
        json!({"$ref": "#/$defs/F"})
    );
    common::check_round_trip(&Walk {
        start: A {
            id: 1,
            C: vec![C {
                id: 2,
                A: vec![A::default()],
                ..C::default()
            }],
            ..A::default()
        },
    });
}

/// A cycle through a newtype variant and a tuple struct, which have no field to mark.
pub mod unnamed {
    use super::*;

    /// A group.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Group {
        pub name: String,
        pub members: Vec<Member>,
        pub parent: Option<GroupRef>,
    }

    /// A member: someone, or a group within the group.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    pub enum Member {
        Person(String),
        Subgroup(Box<Group>),
    }

    /// A group by value.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct GroupRef(pub Box<Group>);

    /// List a group.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct List {
        pub group: Group,
    }
}

#[test]
fn cycles_through_newtype_variants_and_tuple_structs() {
    use unnamed::*;
    let schema: Value = serde_json::from_str(List::INPUT_SCHEMA).unwrap();
    let defs = &schema["$defs"];
    assert_eq!(
        defs["Member"]["anyOf"][1]["properties"]["subgroup"],
        json!({"$ref": "#/$defs/Group"})
    );
    assert_eq!(
        defs["GroupRef"],
        json!({"$ref": "#/$defs/Group", "description": "A group by value."})
    );
    common::check_round_trip(&List {
        group: Group {
            name: "a".into(),
            members: vec![
                Member::Person("x".into()),
                Member::Subgroup(Box::new(Group {
                    name: "b".into(),
                    members: Vec::new(),
                    parent: Some(GroupRef(Box::new(Group {
                        name: "c".into(),
                        members: Vec::new(),
                        parent: None,
                    }))),
                })),
            ],
            parent: None,
        },
    });
}

/// A cycle through a flattened field: the flattened type's properties are the holder's own,
/// and the field in them that leads back refers to the holder.
pub mod flattened {
    use super::*;

    /// A note.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Note {
        pub text: String,
        #[serde(flatten)]
        pub meta: Meta,
    }

    /// What a note is about.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Meta {
        #[serde(default)]
        pub tags: Vec<String>,
        pub reply_to: Option<Box<Note>>,
    }

    /// Write a note.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Write {
        pub note: Note,
    }
}

#[test]
fn a_cycle_through_a_flattened_field() {
    use flattened::*;
    let schema: Value = serde_json::from_str(Write::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema["properties"]["note"],
        json!({"$ref": "#/$defs/Note"})
    );
    assert_eq!(
        schema["$defs"]["Note"]["properties"]["reply_to"],
        json!({"$ref": "#/$defs/Note"})
    );
    let parsed = Write::parse_args(
        &json!({"note": {"text": "a", "tags": null, "reply_to": {"text": "b", "reply_to": null}}})
            .to_string(),
    )
    .unwrap();
    assert_eq!(parsed.note.meta.reply_to.unwrap().text, "b");
    common::check_round_trip(&Write {
        note: Note {
            text: "a".into(),
            meta: Meta {
                tags: vec!["x".into()],
                reply_to: Some(Box::new(Note {
                    text: "b".into(),
                    meta: Meta {
                        tags: Vec::new(),
                        reply_to: None,
                    },
                })),
            },
        },
    });
}

/// A ring of 60 types, each holding the next: the walk that gathers a root's `$defs` keeps its
/// own stack, so it does not take one frame of const evaluation per type (rustc stops at the
/// crate's recursion limit, 128 frames). serde's own derive stops a little further, at 64.
pub mod ring {
    use super::*;

    macro_rules! ring {
        ($($name:ident -> $next:ident,)*) => {$(
            /// A link of the ring.
            #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
            pub struct $name {
                pub n: u32,
                #[serde(default)]
                pub next: Option<Box<$next>>,
            }
        )*};
    }

    ring! {
        R0 -> R1, R1 -> R2, R2 -> R3, R3 -> R4, R4 -> R5, R5 -> R6, R6 -> R7, R7 -> R8, R8 -> R9,
        R9 -> R10, R10 -> R11, R11 -> R12, R12 -> R13, R13 -> R14, R14 -> R15, R15 -> R16,
        R16 -> R17, R17 -> R18, R18 -> R19, R19 -> R20, R20 -> R21, R21 -> R22, R22 -> R23,
        R23 -> R24, R24 -> R25, R25 -> R26, R26 -> R27, R27 -> R28, R28 -> R29, R29 -> R30,
        R30 -> R31, R31 -> R32, R32 -> R33, R33 -> R34, R34 -> R35, R35 -> R36, R36 -> R37,
        R37 -> R38, R38 -> R39, R39 -> R40, R40 -> R41, R41 -> R42, R42 -> R43, R43 -> R44,
        R44 -> R45, R45 -> R46, R46 -> R47, R47 -> R48, R48 -> R49, R49 -> R50, R50 -> R51,
        R51 -> R52, R52 -> R53, R53 -> R54, R54 -> R55, R55 -> R56, R56 -> R57, R57 -> R58,
        R58 -> R59, R59 -> R0,
    }

    /// Go round the ring.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Round {
        pub start: R0,
    }

    /// Go round the ring, in OpenAI strict mode, which the build checks in each type of it.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    #[tool(strict = "openai")]
    pub struct StrictRound {
        pub start: R0,
    }
}

#[test]
fn a_ring_of_sixty_types() {
    use ring::*;
    let schema: Value = serde_json::from_str(Round::INPUT_SCHEMA).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    assert_eq!(defs.len(), 60);
    assert_eq!(
        defs["R59"]["properties"]["next"],
        json!({"$ref": "#/$defs/R0"})
    );
    let round = Round::parse_args(
        r#"{"start": {"n": 0, "next": {"n": 1, "next": {"n": 2, "next": null}}}}"#,
    )
    .unwrap();
    assert_eq!(
        round.start.next.as_ref().unwrap().next.as_ref().unwrap().n,
        2
    );
    common::check_round_trip(&round);
    let strict: Value =
        serde_json::from_str(StrictRound::definition_json(Provider::OpenAiChat)).unwrap();
    assert_eq!(strict["function"]["strict"], json!(true));
    let defs = strict["function"]["parameters"]["$defs"]
        .as_object()
        .unwrap();
    assert_eq!(defs.len(), 60);
    assert_eq!(defs["R7"]["required"], json!(["n", "next"]));
}

/// A type that holds more types of yours than one search for a way back holds (256), and a
/// generic one besides (so it looks through the types it holds itself): each is searched on its
/// own, and it builds.
pub mod wide {
    use super::*;

    /// A page of items of any type.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Items<T> {
        pub items: Vec<T>,
    }

    macro_rules! wide {
        ($($leaf:ident $field:ident),*) => {
            $(
                /// A leaf.
                #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Default)]
                pub struct $leaf {
                    pub v: u8,
                }
            )*

            /// A type that holds all of them.
            #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
            pub struct Wide {
                $(pub $field: $leaf,)*
                pub page: Items<L0>,
            }
        };
    }

    wide! {
        L0 l0, L1 l1, L2 l2, L3 l3, L4 l4, L5 l5, L6 l6, L7 l7, L8 l8, L9 l9, L10 l10, L11
        l11, L12 l12, L13 l13, L14 l14, L15 l15, L16 l16, L17 l17, L18 l18, L19 l19, L20
        l20, L21 l21, L22 l22, L23 l23, L24 l24, L25 l25, L26 l26, L27 l27, L28 l28, L29
        l29, L30 l30, L31 l31, L32 l32, L33 l33, L34 l34, L35 l35, L36 l36, L37 l37, L38
        l38, L39 l39, L40 l40, L41 l41, L42 l42, L43 l43, L44 l44, L45 l45, L46 l46, L47
        l47, L48 l48, L49 l49, L50 l50, L51 l51, L52 l52, L53 l53, L54 l54, L55 l55, L56
        l56, L57 l57, L58 l58, L59 l59, L60 l60, L61 l61, L62 l62, L63 l63, L64 l64, L65
        l65, L66 l66, L67 l67, L68 l68, L69 l69, L70 l70, L71 l71, L72 l72, L73 l73, L74
        l74, L75 l75, L76 l76, L77 l77, L78 l78, L79 l79, L80 l80, L81 l81, L82 l82, L83
        l83, L84 l84, L85 l85, L86 l86, L87 l87, L88 l88, L89 l89, L90 l90, L91 l91, L92
        l92, L93 l93, L94 l94, L95 l95, L96 l96, L97 l97, L98 l98, L99 l99, L100 l100, L101
        l101, L102 l102, L103 l103, L104 l104, L105 l105, L106 l106, L107 l107, L108 l108,
        L109 l109, L110 l110, L111 l111, L112 l112, L113 l113, L114 l114, L115 l115, L116
        l116, L117 l117, L118 l118, L119 l119, L120 l120, L121 l121, L122 l122, L123 l123,
        L124 l124, L125 l125, L126 l126, L127 l127, L128 l128, L129 l129, L130 l130, L131
        l131, L132 l132, L133 l133, L134 l134, L135 l135, L136 l136, L137 l137, L138 l138,
        L139 l139, L140 l140, L141 l141, L142 l142, L143 l143, L144 l144, L145 l145, L146
        l146, L147 l147, L148 l148, L149 l149, L150 l150, L151 l151, L152 l152, L153 l153,
        L154 l154, L155 l155, L156 l156, L157 l157, L158 l158, L159 l159, L160 l160, L161
        l161, L162 l162, L163 l163, L164 l164, L165 l165, L166 l166, L167 l167, L168 l168,
        L169 l169, L170 l170, L171 l171, L172 l172, L173 l173, L174 l174, L175 l175, L176
        l176, L177 l177, L178 l178, L179 l179, L180 l180, L181 l181, L182 l182, L183 l183,
        L184 l184, L185 l185, L186 l186, L187 l187, L188 l188, L189 l189, L190 l190, L191
        l191, L192 l192, L193 l193, L194 l194, L195 l195, L196 l196, L197 l197, L198 l198,
        L199 l199, L200 l200, L201 l201, L202 l202, L203 l203, L204 l204, L205 l205, L206
        l206, L207 l207, L208 l208, L209 l209, L210 l210, L211 l211, L212 l212, L213 l213,
        L214 l214, L215 l215, L216 l216, L217 l217, L218 l218, L219 l219, L220 l220, L221
        l221, L222 l222, L223 l223, L224 l224, L225 l225, L226 l226, L227 l227, L228 l228,
        L229 l229, L230 l230, L231 l231, L232 l232, L233 l233, L234 l234, L235 l235, L236
        l236, L237 l237, L238 l238, L239 l239, L240 l240, L241 l241, L242 l242, L243 l243,
        L244 l244, L245 l245, L246 l246, L247 l247, L248 l248, L249 l249, L250 l250, L251
        l251, L252 l252, L253 l253, L254 l254, L255 l255, L256 l256, L257 l257, L258 l258,
        L259 l259
    }

    /// Look at it.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Look {
        pub wide: Wide,
    }
}

#[test]
fn a_type_that_holds_more_than_256_types_and_a_generic_one() {
    let schema: Value = serde_json::from_str(wide::Look::INPUT_SCHEMA).unwrap();
    let wide = &schema["properties"]["wide"]["properties"];
    assert_eq!(wide.as_object().unwrap().len(), 261);
    assert_eq!(wide["l259"]["properties"]["v"]["type"], "integer");
    assert!(
        schema.get("$defs").is_none(),
        "nothing leads back: no definitions"
    );
}

/// A cycle through a generic type named by an alias (`PostPage` is `Page<Post>`): the generic
/// type has no node of its own to refer to, but the concrete types of the cycle do, and each
/// refers to itself by `$ref` wherever it is held.
pub mod through_alias {
    use super::*;

    /// A page of items.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Page<T> {
        pub items: Vec<T>,
    }

    /// A page of posts.
    pub type PostPage = Page<Post>;

    /// A thread.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Thread {
        pub posts: PostPage,
    }

    /// A post, and the threads it starts.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Post {
        pub text: String,
        #[serde(default)]
        pub replies: Vec<Thread>,
    }

    /// Read a thread.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Read {
        pub thread: Thread,
    }
}

#[test]
fn a_cycle_through_a_generic_type_named_by_an_alias() {
    use through_alias::*;
    let schema: Value = serde_json::from_str(Read::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"thread": {"$ref": "#/$defs/Thread"}},
            "required": ["thread"],
            "$defs": {
                "Post": {
                    "type": "object",
                    "properties": {
                        "text": {"type": "string"},
                        "replies": {
                            "type": "array",
                            "items": {"$ref": "#/$defs/Thread"},
                            "default": []
                        }
                    },
                    "required": ["text"],
                    "description": "A post, and the threads it starts."
                },
                "Thread": {
                    "type": "object",
                    "properties": {
                        "posts": {
                            "type": "object",
                            "properties": {
                                "items": {"type": "array", "items": {"$ref": "#/$defs/Post"}}
                            },
                            "required": ["items"],
                            "description": "A page of items."
                        }
                    },
                    "required": ["posts"],
                    "description": "A thread."
                }
            }
        })
    );
    let parsed = Read::parse_args(
        &json!({"thread": {"posts": {"items": [
            {"text": "a", "replies": null},
            {"text": "b", "replies": [{"posts": {"items": []}}]}
        ]}}})
        .to_string(),
    )
    .unwrap();
    assert_eq!(parsed.thread.posts.items[0].replies, Vec::new());
    assert_eq!(parsed.thread.posts.items[1].replies.len(), 1);
    common::check_round_trip(&Read {
        thread: Thread {
            posts: Page {
                items: vec![Post {
                    text: "a".into(),
                    replies: vec![Thread {
                        posts: Page { items: Vec::new() },
                    }],
                }],
            },
        },
    });
}
