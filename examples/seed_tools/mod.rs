//! The tools from the user's design documents (`../shared/seeds/`), written as Rust types: what
//! `cargo run --example definitions` prints, and what the golden, validation and spec tests check.
//!
//! Each module is one document. The documents give their schemas as JSON (or as Zod/Python that
//! produces it); the types here reproduce them with the `#[serde]` attributes toolgen reads and
//! doc comments, and a `//` comment says where and why a schema differs. A plain
//! `#[serde(default)]` shows the type's default (`"default": []`); a function default
//! (`default = "path"`) is not shown, which is how fields the documents give no default stay
//! without one. `#[tool(default = .., required)]` shows a default and keeps the field
//! `required`, as Zod writes it; `#[tool(example = json!(..))]` writes an example object, and
//! `#[serde(flatten)]` of a tagged enum writes a discriminated union (seed 004).
//!
//! The nested types carry no doc comments where the document gives no descriptions: a doc comment
//! on a `ToolSchema` type becomes its schema's `description`.

// Each program that includes this module uses a different part of it.
#![allow(dead_code)]

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use toolgen::__private::{Defs, Rope, Sealed};
use toolgen::{ArgsError, Dialect, Provider, Tool, ToolSchema, ToolSet};

/// One design document and the tools it defines.
pub struct Seed {
    /// The document's number, the start of its file name (`000`).
    pub id: &'static str,
    /// The document's file under `../shared/seeds/`.
    pub file: &'static str,
    /// What the document designs.
    pub title: &'static str,
    /// Its tools, in the document's order.
    pub tools: &'static [SeedTool],
}

/// A tool, with what the tests need of it without knowing its type.
pub struct SeedTool {
    /// [`Tool::NAME`].
    pub name: &'static str,
    /// [`Tool::INPUT_SCHEMA`].
    pub input_schema: &'static str,
    /// [`Tool::definition`].
    pub definition: fn(Provider) -> Value,
    /// [`Tool::input_schema`]: the schema in each dialect the tool has.
    pub dialect: fn(Dialect) -> Option<&'static str>,
    /// [`Tool::parse_args`], the typed value written back as JSON.
    pub parse_args: fn(&str) -> Result<Value, ArgsError>,
    /// [`Tool::parse_value`], the typed value written back as JSON.
    pub parse_value: fn(Value) -> Result<Value, ArgsError>,
}

const fn tool<T: Tool + Serialize>() -> SeedTool {
    SeedTool {
        name: T::NAME,
        input_schema: T::INPUT_SCHEMA,
        definition: T::definition,
        dialect: T::input_schema,
        parse_args: |args| T::parse_args(args).map(|parsed| written(&parsed)),
        parse_value: |args| T::parse_value(args).map(|parsed| written(&parsed)),
    }
}

/// `value` as JSON (`Value::Null` where it cannot be written, which no seed type is).
fn written<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Every document, in file order.
pub const SEEDS: [Seed; 5] = [
    Seed {
        id: "000",
        file: "000_52907810bf2f4528.txt",
        title: "Tool builder for emit_flashcards: Latvian flashcards with Claude",
        tools: &[tool::<flashcards::EmitFlashcards>()],
    },
    Seed {
        id: "001",
        file: "001_fcc62740e108b61d.txt",
        title: "Anthropic tool translation example",
        tools: &[tool::<bridge::GetWeather>()],
    },
    Seed {
        id: "002",
        file: "002_635047e051fe23be.txt",
        title: "Ghostpen content agent",
        tools: &[
            tool::<ghostpen::ReadStyleProfile>(),
            tool::<ghostpen::UpdateStyleProfile>(),
            tool::<ghostpen::ListProfiles>(),
            tool::<ghostpen::ReadPastPosts>(),
            tool::<ghostpen::SaveToFile>(),
            tool::<ghostpen::SearchWeb>(),
            tool::<ghostpen::ReadNotionPage>(),
            tool::<ghostpen::WriteToNotion>(),
            tool::<ghostpen::TrackFeedback>(),
        ],
    },
    Seed {
        id: "003",
        file: "003_5a7471da92dab92e.txt",
        title: "Function-calling formats for OpenAI and Google GenAI",
        tools: &[
            tool::<function_calling::FunctionName>(),
            tool::<function_calling::GetWeather>(),
            tool::<function_calling::SumNumbers>(),
            tool::<function_calling::ConfigFunc>(),
        ],
    },
    Seed {
        id: "004",
        file: "004_9c5cd9c5a8aa1a77.txt",
        title: "Mind-map operations",
        tools: &[tool::<mind_map::SuggestOperations>()],
    },
];

/// Every seed tool's definition for `provider`, in document order.
///
/// The documents are separate applications: `get_weather` appears in two of them, so send one
/// document's tools ([`Seed::tools`]) to a model, not this whole list.
pub fn definitions(provider: Provider) -> Vec<Value> {
    SEEDS
        .iter()
        .flat_map(|seed| seed.tools.iter())
        .map(|tool| (tool.definition)(provider))
        .collect()
}

/// A list with at least one item, in the schema (`"minItems": 1`) and when parsing (a
/// `Deserialize` that refuses an empty list). What parsing does inside the items (defaults
/// filled in, `null`s dropped, constraints) is `Vec<T>`'s.
///
/// A program of yours writes such a list as a field, `#[tool(length(min = 1))] cards: Vec<Card>`
/// (`"minItems"` after `"items"`). This type exists only to reproduce seed 000's document byte
/// for byte, which writes `"minItems"` before `"items"`: it implements toolgen's sealed schema
/// trait by hand, breaking the seal (`toolgen::__private::Sealed`: not public API, no stability
/// promise), as toolgen does for the standard library's types.
#[derive(Serialize, Debug, PartialEq)]
#[serde(transparent)]
pub struct NonEmpty<T>(pub Vec<T>);

impl<T> Sealed for NonEmpty<T> {}

impl<T: ToolSchema> ToolSchema for NonEmpty<T> {
    const SCHEMA: Rope = Rope::Typed(
        "array",
        &Rope::Seq(&[
            Rope::Str(r#","minItems":1,"items":"#),
            T::SCHEMA,
            Rope::Str("}"),
        ]),
    );
    const DEFS: Defs = T::DEFS;
    const FACTS: &'static toolgen::__private::Facts = <Vec<T> as ToolSchema>::FACTS;
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NonEmpty<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = Vec::deserialize(deserializer)?;
        if items.is_empty() {
            return Err(D::Error::invalid_length(0, &"at least one item"));
        }
        Ok(NonEmpty(items))
    }
}

/// Seed 000, §6.2: the single tool of a Claude pipeline that turns a text into Latvian flashcards.
///
/// The document's `required` lists come from Zod (`.default()` fields are required, except
/// `forms`); the types are chosen so that ours are the same lists, and the defaults of the
/// required fields (`unit`, `contexts`, `visible`) are shown with `#[tool(required)]`.
pub mod flashcards {
    use super::*;

    /// Возвращает строго структурированный JSON с набором флэшкарт (словарных карточек) для
    /// изучения латышского языка. Каждая карточка содержит базовую форму слова/фразы, переводы,
    /// грамматические формы и контексты использования. Все поля должны строго соответствовать
    /// схеме. Никакого текста вне определенных полей.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct EmitFlashcards {
        pub flashcards: NonEmpty<Flashcard>,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Flashcard {
        pub base_form: String,
        // Optional, and `{"type":"string"}` rather than `["string","null"]`: a missing
        // translation is an empty one. The document shows no default here, and a function
        // default is not advertised (a plain `#[serde(default)]` would show `"default":""`).
        #[serde(default = "Default::default")]
        pub base_translation: String,
        // §6.2 shows a default for `unit`, `contexts` and `visible` and keeps them `required`
        // (Zod's output type has every defaulted field): `#[tool(required)]` keeps a field with a
        // default in `required`; a model that leaves one out still gets the default.
        #[tool(default = "word", required)]
        pub unit: Unit,
        // `"default": []`, as in the document.
        #[serde(default)]
        pub forms: Vec<Form>,
        #[serde(default)]
        #[tool(required)]
        pub contexts: Vec<Context>,
        #[tool(default = true, required)]
        pub visible: bool,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    pub enum Unit {
        Word,
        Phrase,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Form {
        pub form: String,
        pub translation: String,
        pub r#type: String,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Context {
        pub lv: String,
        pub ru: String,
        // The document's `"type": "number"` (a JavaScript number); optional, with no default
        // shown, as `base_translation`.
        #[serde(default = "Default::default")]
        pub sid: f64,
        #[serde(default = "Default::default")]
        pub sig: String,
    }
}

/// Seed 001: the tool in the example of translating a Zod tool definition to Anthropic's format.
pub mod bridge {
    use super::*;

    /// Get current weather
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct GetWeather {
        pub location: String,
        pub units: Units,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    pub enum Units {
        Celsius,
        Fahrenheit,
    }
}

/// Seed 002: Ghostpen, a content agent for LinkedIn/Instagram/X posts with style profiles, Notion
/// and web search. The nine tools of its tool specification.
///
/// Differences from the document: the `"example"` of `changes` is written as JSON Schema's
/// `"examples": [..]` (`example` is OpenAPI's singular keyword, which JSON Schema validators and
/// the providers' strict modes do not know), `limit` is an integer (the document's `"number"` is
/// JavaScript's only number type), and schemas without required properties leave `required` out
/// instead of writing `"required": []` (the same meaning).
pub mod ghostpen {
    use super::*;

    /// Читає Style Profile користувача з data/profiles/.
    /// ОБОВ'ЯЗКОВО викликай перед кожною генерацією контенту — без виключень.
    /// Для mix mode викликай двічі з різними profile_name.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct ReadStyleProfile {
        /// Ім'я профілю для читання. Default: 'default'
        #[tool(default = "default")]
        pub profile_name: String,
    }

    /// Оновлює Style Profile користувача. Використовуй ТІЛЬКИ після явного підтвердження
    /// користувача. Ніколи не оновлюй reference профілі через фідбек — тільки personal.
    /// Кожне оновлення автоматично інкрементує version і додає changelog запис.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct UpdateStyleProfile {
        /// Ім'я профілю. Default: 'default'
        #[tool(default = "default")]
        pub profile_name: String,
        /// Об'єкт змін у форматі dot-notation path → new value
        #[tool(example = json!({
            "voice.formality": "casual але експертний",
            "voice.signature_phrases": ["ось у чому штука", "давайте чесно", "спойлер:"]
        }))]
        pub changes: serde_json::Map<String, Value>,
        /// Чому вноситься зміна — для changelog
        pub reason: String,
    }

    /// Показує всі доступні Style Profiles з їх типами і базовою інформацією.
    /// Використовуй коли користувач хоче побачити профілі, обрати профіль,
    /// або коли потрібно підказати доступні варіанти.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct ListProfiles {}

    /// Шукає серед раніше згенерованих та збережених постів ті, що стосуються вказаної теми.
    /// Використовуй щоб уникнути повторення і щоб врахувати що автор вже писав на цю тему.
    /// Не обов'язковий — використовуй коли тема може перетинатися з минулими постами.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct ReadPastPosts {
        /// Ключові слова для пошуку: ['вигорання', 'burnout', 'робота']
        pub keywords: Vec<String>,
        /// Фільтр по платформі. Default: 'all'
        #[serde(default)]
        pub platform: PlatformFilter,
        /// Максимальна кількість результатів. Default: 5
        // The document says `"number"` (JavaScript has no integers); a count is an integer.
        #[tool(default = 5)]
        pub limit: u32,
    }

    /// Зберігає фінальну версію поста як Markdown файл з метаданими.
    /// Викликай після того як користувач підтвердив фінальну версію ("ok", "зберігай").
    /// Файл зберігається з frontmatter для подальшого пошуку.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct SaveToFile {
        /// Повний текст поста
        pub content: String,
        pub platform: Platform,
        /// Тема поста в 2-3 словах для назви файлу
        pub topic: String,
        /// Ім'я профілю або 'mix:default+competitor-alex'
        #[tool(default = "default")]
        pub profile_used: String,
    }

    /// Шукає в інтернеті свіжу інформацію: статистику, факти, тренди, дослідження.
    /// Використовуй коли пост буде сильнішим з конкретними даними або свіжими фактами.
    /// НЕ використовуй для загальновідомих речей — тільки коли потрібна конкретика або актуальність.
    /// Формулюй запити коротко: 2-5 слів, англійською для кращих результатів.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    // Seed 002's performance targets: the call's timeout.
    #[tool(timeout = "10s")]
    pub struct SearchWeb {
        /// Пошуковий запит, 2-5 слів. Приклад: 'burnout statistics 2025'
        pub query: String,
    }

    /// Читає вказану Notion-сторінку і повертає її вміст як Markdown.
    /// Використовуй коли користувач дає Notion URL як джерело для генерації.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    // Seed 002's performance targets: the call's timeout.
    #[tool(timeout = "15s")]
    pub struct ReadNotionPage {
        /// Notion page ID або повний URL. Агент витягує ID автоматично.
        pub page_id: String,
    }

    /// Зберігає згенерований пост у Notion database як нову сторінку зі статусом "draft".
    /// Використовуй тільки після підтвердження користувача.
    /// Якщо Notion не налаштований — повідом і запропонуй зберегти локально.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    // Seed 002's performance targets: the call's timeout.
    #[tool(timeout = "15s")]
    pub struct WriteToNotion {
        /// Текст поста
        pub content: String,
        /// Заголовок сторінки в Notion
        pub title: String,
        pub platform: Platform,
        /// Тема поста
        pub topic: String,
        /// Який профіль використано
        #[tool(default = "default")]
        pub profile_used: String,
    }

    /// Записує фідбек користувача в трекер. Автоматично категоризує за типом.
    /// Коли лічильник категорії досягає 3 — повідом, що варто запропонувати
    /// оновлення style profile.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct TrackFeedback {
        /// Категорія фідбеку
        pub category: FeedbackCategory,
        /// Оригінальний текст фідбеку від користувача
        pub raw_feedback: String,
    }

    /// The content agent's nine tools, offered together: `Tools::definitions(provider)` is the
    /// request's tool list, `Tools::parse_call(&call)` the typed call.
    #[derive(ToolSet, Debug, PartialEq)]
    pub enum Tools {
        ReadStyleProfile(ReadStyleProfile),
        UpdateStyleProfile(UpdateStyleProfile),
        ListProfiles(ListProfiles),
        ReadPastPosts(ReadPastPosts),
        SaveToFile(SaveToFile),
        SearchWeb(SearchWeb),
        ReadNotionPage(ReadNotionPage),
        WriteToNotion(WriteToNotion),
        TrackFeedback(TrackFeedback),
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    pub enum Platform {
        Linkedin,
        Instagram,
        X,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Default)]
    #[serde(rename_all = "lowercase")]
    pub enum PlatformFilter {
        Linkedin,
        Instagram,
        X,
        #[default]
        All,
    }

    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    pub enum FeedbackCategory {
        TooFormal,
        TooCasual,
        TooLong,
        TooShort,
        HookWeak,
        HookStrong,
        ToneOff,
        StructureWrong,
        VocabularyWrong,
        CtaMissing,
        CtaTooPushy,
        Other,
    }
}

/// Seed 003: the examples of a note on function-calling formats (OpenAI, Google GenAI).
///
/// Its OpenAI examples are strict (`function_name`, `sum_numbers`): their definitions for OpenAI
/// are the document's, with `"strict": true`, every property in `required` and
/// `"additionalProperties": false`. Its `**kwargs` example (`config_func`) cannot be strict, as
/// the document says, and is not; for Gemini its `options` become the document's `types.Schema`
/// of an `OBJECT` without properties. Not here: `flexible_function` (named properties plus
/// `additionalProperties` of another schema: a struct with a flattened map, which the document
/// itself advises against).
pub mod function_calling {
    use super::*;

    /// Описание функции
    // The document's strict-mode template: `param2` is optional, so under strict mode it is
    // required and admits `null`.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    #[tool(strict)]
    pub struct FunctionName {
        /// Описание параметра 1
        pub param1: String,
        /// Описание параметра 2 (необязательный)
        // The document's `["integer", "null"]`: `null` shown in the standard schema too.
        #[tool(nullable)]
        pub param2: Option<i64>,
    }

    /// Получить погоду
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct GetWeather {
        /// Город
        pub city: String,
        /// Дни
        // The document's `{"type": "integer"}`, optional: described as the integer it is when
        // sent (parsing also takes `null`, as `None`).
        #[tool(schema = i64)]
        pub days: Option<i64>,
    }

    /// Sums the base number with a list of other numbers
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    #[tool(strict)]
    #[serde(deny_unknown_fields)]
    pub struct SumNumbers {
        pub base: i64,
        /// List of additional numbers to sum
        pub numbers: Vec<i64>,
    }

    // The document gives `config_func(name, **kwargs)` no description; a tool needs one.
    /// Configures `name`; the extra keyword arguments go in `options`.
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    pub struct ConfigFunc {
        pub name: String,
        /// Additional configuration options
        // Optional, with no default shown (the document gives none).
        #[serde(default = "Default::default")]
        pub options: serde_json::Map<String, Value>,
    }
}

/// Seed 004: AI operations on a mind map (Vercel AI SDK). Its one tool, `suggestOperations`,
/// takes a list of operations: each has the fields every operation has (`OperationWithId`: `id`,
/// `targetNodeId`, `description`) and those of its kind, told apart by `action` (the Zod
/// discriminated union): the common struct with the tagged enum flattened in, which the schema
/// writes as one `anyOf` branch per operation with the common fields in each.
pub mod mind_map {
    use super::*;

    /// 提供思维导图操作建议
    #[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
    #[tool(name = "suggestOperations")]
    pub struct SuggestOperations {
        pub operations: Vec<OperationWithId>,
    }

    // `OperationWithId`: the fields every operation has, and the operation.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct OperationWithId {
        /// 操作唯一标识符
        pub id: String,
        // `isNodeId` adds "(完整 UUID)" to the field's description.
        /// 目标节点 UUID (完整 UUID)
        pub target_node_id: String,
        /// 操作描述
        pub description: String,
        #[serde(flatten)]
        pub operation: Operation,
    }

    // The document's list of operations (Q4), each with its description there.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(tag = "action", rename_all = "camelCase")]
    pub enum Operation {
        /// 添加单个子节点
        AddChild { title: String },
        /// 添加节点树
        AddChildTrees { trees: Vec<NodeTree> },
        /// 更新标题
        UpdateTitle { title: String },
        /// 更新笔记
        UpdateNote { note: String },
        /// 删除节点
        DeleteNode,
    }

    // `note?: string` and `children?: NodeTree[]`: may be left out.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct NodeTree {
        pub title: String,
        pub note: Option<String>,
        #[serde(default)]
        pub children: Vec<NodeTree>,
    }
}
