//! The test types of issue 3 (serde fidelity): one per serde attribute, enum representation and
//! `#[tool(..)]` keyword the derives honour. Shared by `serde_attrs.rs` (golden schemas),
//! `differential.rs` (schema and serde agree on accept/reject) and `proptest_roundtrip.rs`.
//! Each test file uses only some of them.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::marker::PhantomData;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toolgen::{Tool, ToolSchema};

// ---------------------------------------------------------------------------------------------
// Container attributes
// ---------------------------------------------------------------------------------------------

/// `#[serde(rename)]` on a container only names the type: the schema is unchanged.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename = "Renamed")]
pub struct ContainerRename {
    pub count: u32,
}

/// A recursive type is written once under `$defs`, by the name serde gives it.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename = "TreeNode")]
pub struct RenamedTree {
    pub label: String,
    pub children: Vec<RenamedTree>,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub struct FieldsLowercase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "UPPERCASE")]
pub struct FieldsUppercase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct FieldsPascalCase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FieldsCamelCase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub struct FieldsSnakeCase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct FieldsScreamingSnakeCase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub struct FieldsKebabCase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub struct FieldsScreamingKebabCase {
    pub first_name: String,
    pub http_status: u16,
    pub x: bool,
}

/// Only the deserialize rule matters to the schema.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all(serialize = "UPPERCASE", deserialize = "kebab-case"))]
pub struct FieldsRenameAllDeserialize {
    pub first_name: String,
    pub http_status: u16,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum VariantsLowercase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "UPPERCASE")]
pub enum VariantsUppercase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub enum VariantsPascalCase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub enum VariantsCamelCase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum VariantsSnakeCase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum VariantsScreamingSnakeCase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum VariantsKebabCase {
    Alpha,
    FirstValue,
    HttpStatus,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub enum VariantsScreamingKebabCase {
    Alpha,
    FirstValue,
    HttpStatus,
}

/// `rename_all_fields` renames the fields of every struct variant; a variant's own `rename_all`
/// wins over it; `rename_all` on the enum renames the variants.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum RenameAllFields {
    Circle {
        radius_mm: u32,
    },
    Rect {
        width_mm: u32,
        height_mm: u32,
    },
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    TextLabel {
        text_value: String,
    },
}

/// Container `#[serde(default)]`: every field may be missing; the values come from the
/// container's `Default`, which the schema cannot know, so it shows no `"default"`.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(default)]
pub struct ContainerDefault {
    pub retries: u32,
    pub label: String,
    pub verbose: bool,
}

impl Default for ContainerDefault {
    fn default() -> Self {
        ContainerDefault {
            retries: 3,
            label: "job".to_owned(),
            verbose: false,
        }
    }
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DenyUnknownFields {
    pub name: String,
    pub limit: Option<u8>,
}

/// A transparent newtype is read as its one field.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(transparent)]
pub struct Meters(pub f64);

/// A transparent struct with named fields: the one field that is not skipped.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(transparent)]
pub struct TransparentNamed {
    pub tags: Vec<String>,
    #[serde(skip)]
    pub marker: PhantomData<u8>,
}

/// What `Rgb` is read from.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct RawRgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

/// `#[serde(from)]`: the schema is the source type's.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(from = "RawRgb")]
pub struct Rgb(pub u32);

impl From<RawRgb> for Rgb {
    fn from(raw: RawRgb) -> Self {
        Rgb((u32::from(raw.r) << 16) | (u32::from(raw.g) << 8) | u32::from(raw.b))
    }
}

/// `#[serde(try_from)]`: the schema is the source type's, without the conversion's own check
/// (that the value is at most 100).
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(try_from = "u8")]
pub struct Percent(pub u8);

impl TryFrom<u8> for Percent {
    type Error = String;
    fn try_from(value: u8) -> Result<Self, String> {
        if value <= 100 {
            Ok(Percent(value))
        } else {
            Err(format!("{value} is more than 100"))
        }
    }
}

/// `#[serde(bound)]` changes only the impl's where clause.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(bound(deserialize = "T: serde::de::DeserializeOwned"))]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}

pub use serde as renamed_serde;

/// `#[serde(crate)]` changes only where the derive finds serde.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(crate = "renamed_serde")]
pub struct CratePath {
    pub enabled: bool,
}

// ---------------------------------------------------------------------------------------------
// The mind-map operations tool (internally tagged, `action` as the tag)
// ---------------------------------------------------------------------------------------------

/// A node to add, with its subtree.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct NodeTree {
    pub title: String,
    pub note: Option<String>,
    pub children: Option<Vec<NodeTree>>,
}

/// The node a deletion removes.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct DeleteTarget {
    pub id: String,
    pub target_node_id: String,
    pub description: String,
}

/// One edit to the mind map.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(
    tag = "action",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Operation {
    /// Add one child node under the target node.
    AddChild {
        id: String,
        /// Full UUID of the parent node.
        target_node_id: String,
        description: String,
        title: String,
    },
    /// Add whole subtrees under the target node.
    AddChildTrees {
        id: String,
        target_node_id: String,
        description: String,
        children: Vec<NodeTree>,
    },
    /// Change a node's title.
    UpdateTitle {
        id: String,
        target_node_id: String,
        description: String,
        title: String,
    },
    /// Change or clear a node's note.
    UpdateNote {
        id: String,
        target_node_id: String,
        description: String,
        note: Option<String>,
    },
    /// Delete a node and its subtree.
    DeleteNode(DeleteTarget),
}

/// Suggest edits to the user's mind map.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct SuggestOperations {
    pub operations: Vec<Operation>,
}

// ---------------------------------------------------------------------------------------------
// Enum representations, with every variant shape serde allows in each
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

/// Externally tagged (serde's default).
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub enum External {
    Stop,
    Pause,
    Wait(u32),
    Goto(Point),
    Pair(u8, String),
    Move { dx: i32, dy: Option<i32> },
}

/// Internally tagged: unit, struct, and newtype variants of a struct and of a map.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "kind")]
pub enum Internal {
    Stop,
    Goto(Point),
    Labels(BTreeMap<String, u32>),
    Move { dx: i32, dy: Option<i32> },
}

/// Adjacently tagged: unit, newtype (also of an `Option`), tuple and struct variants.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Stop,
    Wait(u32),
    Note(Option<String>),
    Pair(u8, String),
    Move { dx: i32, dy: Option<i32> },
}

/// Untagged: serde tries the variants in order.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(untagged)]
pub enum Untagged {
    Nothing,
    Word(String),
    Pair(u8, u8),
    Named { name: String, count: u32 },
}

/// `deny_unknown_fields` on an externally tagged enum: it applies to struct variants' fields.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(deny_unknown_fields)]
pub enum ExternalStrict {
    Stop,
    Goto(Point),
    Move { dx: i32 },
}

/// `deny_unknown_fields` on an internally tagged enum: it applies to struct variants only (a
/// unit variant ignores what follows its tag; a newtype variant's content decides for itself).
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum InternalStrict {
    Stop,
    Goto(Point),
    Move { dx: i32 },
}

/// `deny_unknown_fields` on an adjacently tagged enum: no keys beside tag and content, and no
/// unknown fields in struct variants.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum AdjacentStrict {
    Stop,
    Goto(Point),
    Move { dx: i32 },
}

/// A struct that denies unknown fields, as an internally tagged newtype variant's content.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(deny_unknown_fields)]
pub struct StrictPoint {
    pub x: i32,
    pub y: i32,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "kind")]
pub enum InternalStrictContent {
    Goto(StrictPoint),
}

// ---------------------------------------------------------------------------------------------
// Field attributes
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldRename {
    #[serde(rename = "type")]
    pub kind: String,
    pub size: u8,
}

/// Only the deserialize name is in the schema.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldRenameDeserialize {
    #[serde(rename(serialize = "out_value", deserialize = "in_value"))]
    pub value: u8,
}

/// Aliases parse, but the schema advertises the primary name only.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldAlias {
    #[serde(alias = "colour", alias = "hue")]
    pub color: String,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Default, Clone, Copy)]
pub enum Speed {
    Slow,
    #[default]
    Fast,
}

/// A `Default` the schema cannot know.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Default, Clone)]
pub struct Margins {
    pub top: u8,
    pub bottom: u8,
}

/// Field `#[serde(default)]`: not required; the type's known default shown as `"default"`.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldDefaults {
    #[serde(default)]
    pub flag: bool,
    #[serde(default)]
    pub count: u32,
    #[serde(default)]
    pub offset: i64,
    #[serde(default)]
    pub ratio: f64,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub unique: BTreeSet<u8>,
    #[serde(default)]
    pub scores: HashMap<String, u8>,
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub speed: Speed,
    #[serde(default)]
    pub margins: Margins,
    pub id: u32,
}

fn default_port() -> u16 {
    8080
}

/// `#[serde(default = "path")]`: not required, and no `"default"` (only the function knows it).
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldDefaultPath {
    pub host: String,
    #[serde(default = "default_port")]
    pub port: u16,
}

/// `skip` and `skip_deserializing` fields are not input.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldSkip {
    pub query: String,
    #[serde(skip)]
    pub cache: Vec<u8>,
    #[serde(skip_deserializing)]
    pub hits: u32,
}

/// `skip_serializing(_if)` fields are still input, and still required.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct FieldSkipSerializing {
    #[serde(skip_serializing)]
    pub secret: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<u8>,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct Paging {
    /// Page number, from 1.
    pub page: u32,
    pub per_page: Option<u8>,
}

/// `flatten` of a struct: its properties and `required` merged in.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct FlattenStruct {
    pub query: String,
    #[serde(flatten)]
    pub paging: Paging,
}

/// `flatten` of a map: the other properties, as `additionalProperties`.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct FlattenMap {
    pub id: u32,
    #[serde(flatten)]
    pub extra: BTreeMap<String, String>,
}

/// An internally tagged enum to flatten: struct, unit and newtype variants.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum FlatAction {
    /// Add a child node.
    AddChild { title: String, note: Option<String> },
    /// Delete the node.
    DeleteNode,
    /// Move the node.
    MoveTo(Paging),
}

/// `flatten` of an internally tagged enum: one `anyOf` branch per variant, with the struct's
/// own properties merged in (seed 004's operations).
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct FlattenInternal {
    pub id: String,
    /// The node the operation applies to.
    pub target_node_id: String,
    #[serde(flatten)]
    pub op: FlatAction,
    pub description: Option<String>,
}

/// An externally tagged enum to flatten.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "lowercase")]
pub enum FlatExternal {
    Text(String),
    Point { x: i32, y: i32 },
    Nothing,
}

/// `flatten` of an externally tagged enum: the variant's name is one more key.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct FlattenExternal {
    pub id: u32,
    #[serde(flatten)]
    pub value: FlatExternal,
}

/// An adjacently tagged enum to flatten.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "t", content = "c")]
pub enum FlatAdjacent {
    Count(u8),
    Maybe(Option<bool>),
    Empty,
}

/// `flatten` of an adjacently tagged enum: the tag and content keys join the object's.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct FlattenAdjacent {
    pub id: u32,
    #[serde(flatten)]
    pub value: FlatAdjacent,
}

/// An untagged enum to flatten.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(untagged)]
pub enum FlatUntagged {
    ByName { name: String },
    Paged(Paging),
}

/// `flatten` of an untagged enum: each variant's properties, tried in order.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct FlattenUntagged {
    pub id: u32,
    #[serde(flatten)]
    pub by: FlatUntagged,
}

/// A struct flattened in turn: its flattened enum's branches reach the outer object.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct FlattenTwice {
    pub batch: u32,
    #[serde(flatten)]
    pub inner: FlattenInternal,
}

mod secs {
    use super::{Deserialize, Deserializer, Duration, Serializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Duration, D::Error> {
        u64::deserialize(de).map(Duration::from_secs)
    }

    pub fn serialize<S: Serializer>(value: &Duration, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_u64(value.as_secs())
    }
}

fn optional_secs<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Duration>, D::Error> {
    Option::<u64>::deserialize(de).map(|secs| secs.map(Duration::from_secs))
}

/// `with` / `deserialize_with`: the schema comes from `#[tool(schema)]`. serde requires a
/// `deserialize_with` field even when it is an `Option`.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
pub struct FieldWith {
    #[serde(with = "secs")]
    #[tool(schema = u64)]
    pub timeout: Duration,
    #[serde(deserialize_with = "optional_secs")]
    #[tool(schema = "Option<u64>")]
    pub delay: Option<Duration>,
    #[serde(deserialize_with = "optional_secs", default)]
    #[tool(schema = "Option<u64>")]
    pub grace: Option<Duration>,
}

// ---------------------------------------------------------------------------------------------
// Variant attributes
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub enum VariantRename {
    #[serde(rename = "lo")]
    Low,
    #[serde(rename(serialize = "HIGH", deserialize = "hi"))]
    High,
    #[serde(rename = "custom")]
    Custom(u8),
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub enum VariantAlias {
    Small,
    #[serde(alias = "mid", alias = "middle")]
    Medium,
    #[serde(alias = "xl")]
    Large {
        extra: u8,
    },
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub enum VariantSkip {
    Kept,
    #[serde(skip)]
    Hidden,
    #[serde(skip_deserializing)]
    OutputOnly(u8),
    Other {
        value: u8,
    },
}

/// `other` in an externally tagged enum: any other string.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub enum ExternalOther {
    Red,
    Green,
    Custom(String),
    #[serde(other)]
    Unknown,
}

/// `other` in an internally tagged enum: any other tag.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(tag = "type")]
pub enum InternalOther {
    Circle {
        radius: u32,
    },
    Square {
        side: u32,
    },
    #[serde(other)]
    Unknown,
}

/// `other` in an adjacently tagged enum: any other tag.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(tag = "op", content = "args")]
pub enum AdjacentOther {
    Add(i32, i32),
    Neg(i32),
    #[serde(other)]
    Unknown,
}

/// `untagged` on the last variant: tried when no tagged variant matches.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub enum VariantUntagged {
    Auto,
    Fixed {
        value: u32,
    },
    #[serde(untagged)]
    Raw(String),
}

// ---------------------------------------------------------------------------------------------
// `#[tool(default = ..)]` and validation keywords
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct Style {
    #[tool(default = "plain")]
    pub font: String,
    #[tool(default = 12)]
    pub size: u8,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct Item {
    pub name: String,
    #[tool(default = 1)]
    pub quantity: u32,
}

#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shipping {
    Pickup,
    Courier {
        #[tool(default = false)]
        express: bool,
        #[tool(default = "front door")]
        drop_at: String,
    },
}

/// Place an order.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq, Clone)]
pub struct PlaceOrder {
    pub customer: String,
    #[tool(default = true)]
    pub notify: bool,
    #[tool(default = 2.5)]
    pub tip: f64,
    #[tool(default = [])]
    pub coupons: Vec<String>,
    #[tool(default = "Slow")]
    pub speed: Speed,
    pub style: Style,
    pub items: Vec<Item>,
    pub shipping: Shipping,
}

/// Validation and annotation keywords. A tool, so that `parse_args` checks them.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Constrained {
    #[tool(range(min = 1, max = 10))]
    pub rating: u8,
    #[tool(range(min = -1.5, max = 1.5))]
    pub balance: f64,
    #[tool(range(min = 0))]
    pub offset: Option<i32>,
    #[tool(length(min = 2, max = 5))]
    pub code: String,
    #[tool(length(max = 3))]
    pub tags: Vec<String>,
    #[tool(pattern = "^[a-z]+-[0-9]+$")]
    pub slug: String,
    #[tool(format = "date")]
    pub due: String,
    #[tool(
        format = "email",
        example = "ada@example.com",
        example = "bob@example.org"
    )]
    pub email: Option<String>,
    #[tool(example = 42)]
    pub answer: i64,
}
