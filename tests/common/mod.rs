//! Test tools for every row of the type mapping and for the features around it, with the checks
//! the test files share. `type_mapping.rs` compares their schema text with what the mapping says;
//! `validate.rs` checks every schema against the meta-schema and round-trips sample values;
//! `specs.rs` checks their provider definitions.

// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::path::PathBuf;

use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use toolgen::{Provider, Tool, ToolSchema};

/// One row of the type mapping: the schema of a struct whose one field `value` has the row's type,
/// by the three ways toolgen can reach it.
pub struct Row {
    pub name: &'static str,
    /// The derive's schema of `struct Folded { value: T }`, `T` written out: the macro writes the
    /// std types it recognises as literal text.
    pub folded: String,
    /// The derive's schema of `struct Traited { value: Alias }` with `type Alias = T`: the macro
    /// cannot see through the alias, so the schema comes from the `ToolSchema` impls.
    pub traited: String,
    /// `T::json_schema()`: the runtime impls alone, no derive.
    pub runtime: String,
    /// Both tools' definitions (for tool rows).
    pub tools: Vec<TestTool>,
    /// Checks a sample value of both tools both ways (for tool rows; the others' types cannot be
    /// deserialized into an owned value, or have no `PartialEq`).
    pub round_trip: Option<fn()>,
    /// Both tools, to parse arguments with (for tool rows).
    pub parsers: Vec<ParsingTool>,
}

/// A tool that parses arguments, its typed value written back as JSON: what
/// `tests/dynamic_parity.rs` holds a `DynamicTool` built from its schema against.
#[derive(Clone, Copy)]
pub struct ParsingTool {
    pub name: &'static str,
    pub input_schema: &'static str,
    /// [`Tool::parse_args`], the value written back as JSON.
    pub parse_args: fn(&str) -> Result<Value, toolgen::ArgsError>,
    /// [`Tool::parse_value`], the value written back as JSON.
    pub parse_value: fn(Value) -> Result<Value, toolgen::ArgsError>,
}

pub const fn parsing_tool<T: Tool + Serialize>(name: &'static str) -> ParsingTool {
    ParsingTool {
        name,
        input_schema: T::INPUT_SCHEMA,
        parse_args: |args| T::parse_args(args).map(|parsed| written(&parsed)),
        parse_value: |args| T::parse_value(args).map(|parsed| written(&parsed)),
    }
}

/// `value` as JSON (`Value::Null` where it cannot be written).
fn written<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Every test tool that parses arguments into a type that serializes: the named ones and both
/// tools of every tool row.
pub fn parsing_tools() -> Vec<ParsingTool> {
    let mut tools = vec![
        parsing_tool::<Pages>("Pages"),
        parsing_tool::<Forest>("Forest"),
        parsing_tool::<Documented>("Documented"),
        parsing_tool::<AttributeDescribed>("AttributeDescribed"),
        parsing_tool::<Optionals>("Optionals"),
        parsing_tool::<FindOrders>("FindOrders"),
    ];
    tools.extend(rows::all().into_iter().flat_map(|row| row.parsers));
    tools
}

/// A tool, with what the checks need of it.
#[derive(Clone, Copy)]
pub struct TestTool {
    pub name: &'static str,
    pub input_schema: &'static str,
    pub definition: fn(Provider) -> Value,
    /// What the build knows of the schema, for its strict-mode checks.
    pub facts: &'static toolgen::__private::Facts,
}

pub const fn test_tool<T: Tool>(name: &'static str) -> TestTool {
    TestTool {
        name,
        input_schema: T::INPUT_SCHEMA,
        definition: T::definition,
        facts: <T as toolgen::ToolSchema>::FACTS,
    }
}

/// A row whose type serde can deserialize: both structs are tools.
macro_rules! tool_rows {
    ($($name:ident: $ty:ty = $sample:expr;)*) => {$(
        pub mod $name {
            use super::*;

            pub type Alias = $ty;

            /// The type as written.
            #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
            pub struct Folded {
                pub value: $ty,
            }

            /// The type through an alias.
            #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
            pub struct Traited {
                pub value: Alias,
            }

            pub fn sample() -> $ty {
                $sample
            }

            fn round_trip() {
                check_round_trip(&Folded { value: sample() });
                check_round_trip(&Traited { value: sample() });
            }

            pub fn row() -> Row {
                Row {
                    name: stringify!($name),
                    folded: Folded::INPUT_SCHEMA.to_owned(),
                    traited: Traited::INPUT_SCHEMA.to_owned(),
                    runtime: <$ty as ToolSchema>::json_schema(),
                    tools: vec![
                        test_tool::<Folded>(concat!(stringify!($name), "::Folded")),
                        test_tool::<Traited>(concat!(stringify!($name), "::Traited")),
                    ],
                    round_trip: Some(round_trip as fn()),
                    parsers: vec![
                        parsing_tool::<Folded>(concat!(stringify!($name), "::Folded")),
                        parsing_tool::<Traited>(concat!(stringify!($name), "::Traited")),
                    ],
                }
            }
        }
    )*};
}

/// A row whose type has a schema but is not a tool's field: `ToolSchema` structs.
macro_rules! schema_rows {
    ($($name:ident: $ty:ty;)*) => {$(
        pub mod $name {
            use super::*;

            pub type Alias = $ty;

            #[derive(ToolSchema)]
            pub struct Folded {
                pub value: $ty,
            }

            #[derive(ToolSchema)]
            pub struct Traited {
                pub value: Alias,
            }

            pub fn row() -> Row {
                Row {
                    name: stringify!($name),
                    folded: Folded::json_schema(),
                    traited: Traited::json_schema(),
                    runtime: <$ty as ToolSchema>::json_schema(),
                    tools: Vec::new(),
                    round_trip: None,
                    parsers: Vec::new(),
                }
            }
        }
    )*};
}

pub mod rows {
    use super::*;

    tool_rows! {
        boolean: bool = true;
        int8: i8 = i8::MIN;
        int16: i16 = i16::MIN;
        int32: i32 = i32::MAX;
        int64: i64 = i64::MIN;
        int128: i128 = -170;
        isize_: isize = -3;
        uint8: u8 = u8::MAX;
        uint16: u16 = u16::MAX;
        uint32: u32 = u32::MAX;
        uint64: u64 = u64::MAX;
        uint128: u128 = 170;
        usize_: usize = 3;
        float32: f32 = 1.5;
        float64: f64 = -0.25;
        character: char = '🦀';
        string: String = "Riga".to_owned();
        boxed_str: Box<str> = "Riga".into();
        cow_str: Cow<'static, str> = Cow::Borrowed("Riga");
        path_buf: PathBuf = PathBuf::from("data/profiles/default.json");
        option_string: Option<String> = Some("Riga".to_owned());
        option_vec: Option<Vec<u8>> = Some(vec![1, 2]);
        option_enum: Option<Plain> = Some(Plain::FirstOne);
        option_value: Option<Value> = Some(serde_json::json!({"any": ["thing"]}));
        vec: Vec<String> = vec!["a".to_owned(), "b".to_owned()];
        vec_deque: std::collections::VecDeque<u8> = VecDeque::from([1, 2, 3]);
        linked_list: std::collections::LinkedList<u8> = [1, 2].into_iter().collect();
        array: [u8; 3] = [1, 2, 3];
        hash_set: std::collections::HashSet<u8> = [1, 2].into_iter().collect();
        btree_set: std::collections::BTreeSet<String> = ["a".to_owned()].into_iter().collect();
        hash_map: std::collections::HashMap<String, u8> = HashMap::from([("a".to_owned(), 1)]);
        hash_map_bare: HashMap<String, u8> = HashMap::from([("a".to_owned(), 1)]);
        btree_map: std::collections::BTreeMap<String, Vec<u8>> =
            [("a".to_owned(), vec![1])].into_iter().collect();
        boxed: Box<u8> = Box::new(7);
        tuple: (u8, String, bool) = (1, "a".to_owned(), false);
        unit: () = ();
        json_value: Value = serde_json::json!([1, "two", {"three": null}]);
        plain_enum: Plain = Plain::Second;
        documented_enum: Priority = Priority::High;
    }

    schema_rows! {
        str_ref: &'static str;
        rc: std::rc::Rc<u8>;
        arc: std::sync::Arc<String>;
        binary_heap: std::collections::BinaryHeap<u8>;
    }

    /// Every row.
    pub fn all() -> Vec<Row> {
        vec![
            boolean::row(),
            int8::row(),
            int16::row(),
            int32::row(),
            int64::row(),
            int128::row(),
            isize_::row(),
            uint8::row(),
            uint16::row(),
            uint32::row(),
            uint64::row(),
            uint128::row(),
            usize_::row(),
            float32::row(),
            float64::row(),
            character::row(),
            string::row(),
            boxed_str::row(),
            cow_str::row(),
            path_buf::row(),
            option_string::row(),
            option_vec::row(),
            option_enum::row(),
            option_value::row(),
            vec::row(),
            vec_deque::row(),
            linked_list::row(),
            array::row(),
            hash_set::row(),
            btree_set::row(),
            hash_map::row(),
            hash_map_bare::row(),
            btree_map::row(),
            boxed::row(),
            tuple::row(),
            unit::row(),
            json_value::row(),
            plain_enum::row(),
            documented_enum::row(),
            str_ref::row(),
            rc::row(),
            arc::row(),
            binary_heap::row(),
        ]
    }
}

// A unit-only enum without doc comments: one `enum`, names as serde reads them.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum Plain {
    FirstOne,
    #[serde(rename = "2nd")]
    Second,
    #[serde(skip)]
    Hidden,
    ThirdOne,
}

// A unit-only enum with documented variants: one `const` each, keeping its description.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Priority {
    /// Can wait.
    Low,
    /// Do it now.
    #[serde(rename = "urgent")]
    High,
    #[serde(skip_deserializing)]
    Internal,
    Normal,
}

// A generic type, used with a std type and with a user type.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Item {
    pub id: u32,
}

/// Pages of numbers and of items.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Pages {
    pub numbers: Page<u8>,
    pub items: Page<Item>,
    pub maybe_page: Option<Page<u8>>,
    pub maybe_item: Option<Item>,
}

/// A node of a tree.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct TreeNode {
    pub name: String,
    pub children: Vec<Self>,
    pub more: Vec<TreeNode>,
    pub next: Option<Box<TreeNode>>,
}

/// Trees: one recursive type used twice.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Forest {
    pub first: TreeNode,
    pub rest: Vec<TreeNode>,
}

/// What the type says about itself.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Described {
    pub text: String,
}

/// Reads a "quoted" C:\path.
///
/// Then a second paragraph,
/// over two lines: 🦀.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Documented {
    /// The field's own words,
    /// joined.
    pub overridden: Described,
    pub inherited: Described,
    /// The field's words for an optional value.
    pub maybe: Option<Described>,
    #[tool(
        description = "tab:\t newline:\n quote:\" backslash:\\ bell:\u{7} nul:\0 del:\u{7f} emoji:🦀"
    )]
    pub escaped: u8,
}

/// This doc comment is not the description.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(description = "The attribute wins.")]
pub struct AttributeDescribed {
    /// Not this one either.
    #[tool(description = "The field's attribute wins.")]
    pub value: u8,
}

// A newtype: serde reads it as its content.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Meters(pub f64);

/// Optional user types.
// Nullable: the schemas show `null` (an `Option` of a user type widens its type as one of a std
// type does).
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(nullable)]
pub struct Optionals {
    pub meters: Option<Meters>,
    pub item: Option<Item>,
    /// Twice optional, described here.
    pub twice: Option<Option<Described>>,
}

/// Look up a customer's orders: a tool with every provider-specific definition property.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(cache_control = "1h", defer_loading, eager_input_streaming)]
#[tool(input_example = json!({"customer": "C-1042", "status": "open"}))]
#[tool(input_example = json!({"customer": "C-7"}))]
pub struct FindOrders {
    pub customer: String,
    pub status: Option<String>,
}

/// Every test tool that is not a row, and both tools of every tool row.
pub fn tools() -> Vec<TestTool> {
    let mut tools = vec![
        test_tool::<Pages>("Pages"),
        test_tool::<Forest>("Forest"),
        test_tool::<Documented>("Documented"),
        test_tool::<AttributeDescribed>("AttributeDescribed"),
        test_tool::<Optionals>("Optionals"),
        test_tool::<FindOrders>("FindOrders"),
    ];
    tools.extend(rows::all().into_iter().flat_map(|row| row.tools));
    tools
}

/// Every schema text the test types produce: tools and `ToolSchema`-only rows.
pub fn schemas() -> Vec<(String, String)> {
    let mut schemas: Vec<(String, String)> = tools()
        .iter()
        .map(|tool| (tool.name.to_owned(), tool.input_schema.to_owned()))
        .collect();
    for row in rows::all().into_iter().filter(|row| row.tools.is_empty()) {
        schemas.push((format!("{}::Folded", row.name), row.folded));
        schemas.push((format!("{}::Traited", row.name), row.traited));
    }
    schemas
}

/// The emitted schema as a value; panics on invalid JSON and on repeated keys, which
/// `serde_json::from_str` would silently merge.
pub fn parse_schema(name: &str, text: &str) -> Value {
    match serde_json::from_str::<UniqueKeys>(text) {
        Ok(UniqueKeys(value)) => value,
        Err(error) => panic!("{name}: schema is not JSON with unique keys: {error}\n{text}"),
    }
}

/// A JSON value whose objects have no repeated key.
struct UniqueKeys(Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(UniqueKeysVisitor)
            .map(UniqueKeys)
    }
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueKeys(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let UniqueKeys(value) = map.next_value()?;
            if object.insert(key.clone(), value).is_some() {
                return Err(A::Error::custom(format!("repeated key `{key}`")));
            }
        }
        Ok(Value::Object(object))
    }
}

/// A validator for the emitted schema (JSON Schema 2020-12).
pub fn validator(name: &str, text: &str) -> jsonschema::Validator {
    let schema = parse_schema(name, text);
    jsonschema::draft202012::new(&schema)
        .unwrap_or_else(|error| panic!("{name}: schema does not compile: {error}\n{text}"))
}

/// A value serde writes for the tool (a `None` left out, as a model leaves an optional field out)
/// validates against its schema, and parses back equal.
pub fn check_round_trip<T: Tool + Serialize + PartialEq + Debug>(value: &T) {
    let mut json = serde_json::to_value(value).expect("test values serialize");
    // serde writes `None` as `null`; a model leaves an optional field out.
    let standard: Value = serde_json::from_str(T::INPUT_SCHEMA).expect("the schema is JSON");
    crate::dialect_check::without_nulls(&mut json, &standard, &standard);
    let validator = validator(T::NAME, T::INPUT_SCHEMA);
    if let Err(error) = validator.validate(&json) {
        panic!(
            "{}: {json} does not validate: {error} (at {})\nschema: {}",
            T::NAME,
            error.instance_path(),
            T::INPUT_SCHEMA
        );
    }
    let back = T::parse_args(&json.to_string())
        .unwrap_or_else(|error| panic!("{}: {json} does not parse back: {error}", T::NAME));
    pretty_assertions::assert_eq!(&back, value, "{}: {json}", T::NAME);
    check_dialects(value, &json);
}

/// The value in every dialect the tool's schema has: it validates against each, and for OpenAI
/// strict, sent with `null` for every optional property it leaves out, parses back equal.
pub fn check_dialects<T: Tool + PartialEq + Debug>(value: &T, json: &Value) {
    let standard: Value = serde_json::from_str(T::INPUT_SCHEMA).expect("the schema is JSON");
    for (dialect, validator) in crate::dialect_check::validators(T::NAME, T::INPUT_SCHEMA) {
        let mut sent = json.clone();
        if dialect == toolgen::Dialect::OpenAiStrict {
            crate::dialect_check::with_nulls(&mut sent, &standard, &standard);
        }
        if let Err(error) = validator.validate(&sent) {
            panic!(
                "{} {dialect:?}: {sent} does not validate: {error} (at {})",
                T::NAME,
                error.instance_path()
            );
        }
        let back = T::parse_args(&sent.to_string()).unwrap_or_else(|error| {
            panic!(
                "{} {dialect:?}: {sent} does not parse back: {error}",
                T::NAME
            )
        });
        pretty_assertions::assert_eq!(&back, value, "{} {dialect:?}: {sent}", T::NAME);
    }
}

/// Arguments the schema rejects, and that serde rejects too.
pub fn check_rejected<T: Tool + Debug>(args: Value) {
    let validator = validator(T::NAME, T::INPUT_SCHEMA);
    assert!(
        !validator.is_valid(&args),
        "{}: the schema accepts {args}\nschema: {}",
        T::NAME,
        T::INPUT_SCHEMA
    );
    if let Ok(parsed) = T::parse_args(&args.to_string()) {
        panic!("{}: serde accepts {args} as {parsed:?}", T::NAME);
    }
}
