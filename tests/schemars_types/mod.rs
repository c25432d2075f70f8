//! The toolgen types the `schemars1` tests give schemars and rmcp: types that hold each other,
//! a self-recursive tool, two types named `Node`, generic types, defaults and constraints.
#![allow(dead_code)]

use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

pub mod outline {
    use super::*;

    /// A heading and the headings under it.
    #[derive(ToolSchema, Deserialize)]
    pub struct Node {
        pub heading: String,
        pub children: Vec<Node>,
    }
}

pub mod chain {
    use super::*;

    /// A step and the one after it.
    #[derive(ToolSchema, Deserialize)]
    pub struct Node {
        pub step: u32,
        pub next: Option<Box<Node>>,
    }
}

/// A folder.
#[derive(ToolSchema, Deserialize)]
pub struct Folder {
    #[tool(length(min = 1, max = 40))]
    pub name: String,
    pub files: Vec<File>,
}

/// A file, and the folder it is in.
#[derive(ToolSchema, Deserialize)]
pub struct File {
    pub name: String,
    pub parent: Option<Box<Folder>>,
}

/// A tree of values.
#[derive(ToolSchema, Deserialize)]
pub struct Tree<T> {
    pub value: T,
    pub kids: Vec<Tree<T>>,
}

/// How urgent it is.
#[derive(ToolSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Low,
    High,
}

/// A page of items.
#[derive(ToolSchema, Deserialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    #[tool(default = 1)]
    pub number: u32,
}

/// Look at a file.
#[derive(Tool, Deserialize)]
pub struct Inspect {
    /// The file.
    pub file: File,
    pub chain: chain::Node,
    pub outline: Vec<outline::Node>,
}

/// Plan the work.
#[derive(Tool, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanWork {
    #[tool(length(min = 1, max = 80))]
    pub title: String,
    pub level: Option<Level>,
    pub pages: Page<String>,
    #[serde(default)]
    pub dry_run: bool,
}

/// A query that holds queries.
#[derive(Tool, Deserialize)]
pub struct Query {
    pub term: String,
    pub and: Vec<Query>,
}
