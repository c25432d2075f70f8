use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

// A hub that holds 65 types, each of which leads back to it: 66 types under `$defs`.
#[derive(ToolSchema, Deserialize)]
struct Hub { t0: Vec<T0>, t1: Vec<T1>, t2: Vec<T2>, t3: Vec<T3>, t4: Vec<T4>, t5: Vec<T5>, t6: Vec<T6>, t7: Vec<T7>, t8: Vec<T8>, t9: Vec<T9>, t10: Vec<T10>, t11: Vec<T11>, t12: Vec<T12>, t13: Vec<T13>, t14: Vec<T14>, t15: Vec<T15>, t16: Vec<T16>, t17: Vec<T17>, t18: Vec<T18>, t19: Vec<T19>, t20: Vec<T20>, t21: Vec<T21>, t22: Vec<T22>, t23: Vec<T23>, t24: Vec<T24>, t25: Vec<T25>, t26: Vec<T26>, t27: Vec<T27>, t28: Vec<T28>, t29: Vec<T29>, t30: Vec<T30>, t31: Vec<T31>, t32: Vec<T32>, t33: Vec<T33>, t34: Vec<T34>, t35: Vec<T35>, t36: Vec<T36>, t37: Vec<T37>, t38: Vec<T38>, t39: Vec<T39>, t40: Vec<T40>, t41: Vec<T41>, t42: Vec<T42>, t43: Vec<T43>, t44: Vec<T44>, t45: Vec<T45>, t46: Vec<T46>, t47: Vec<T47>, t48: Vec<T48>, t49: Vec<T49>, t50: Vec<T50>, t51: Vec<T51>, t52: Vec<T52>, t53: Vec<T53>, t54: Vec<T54>, t55: Vec<T55>, t56: Vec<T56>, t57: Vec<T57>, t58: Vec<T58>, t59: Vec<T59>, t60: Vec<T60>, t61: Vec<T61>, t62: Vec<T62>, t63: Vec<T63>, t64: Vec<T64>, }
#[derive(ToolSchema, Deserialize)]
struct T0 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T1 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T2 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T3 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T4 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T5 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T6 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T7 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T8 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T9 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T10 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T11 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T12 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T13 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T14 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T15 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T16 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T17 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T18 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T19 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T20 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T21 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T22 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T23 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T24 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T25 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T26 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T27 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T28 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T29 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T30 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T31 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T32 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T33 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T34 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T35 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T36 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T37 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T38 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T39 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T40 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T41 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T42 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T43 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T44 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T45 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T46 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T47 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T48 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T49 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T50 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T51 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T52 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T53 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T54 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T55 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T56 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T57 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T58 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T59 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T60 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T61 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T62 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T63 { hub: Option<Box<Hub>> }
#[derive(ToolSchema, Deserialize)]
struct T64 { hub: Option<Box<Hub>> }

/// Walk the hub.
#[derive(Tool, Deserialize)]
struct Walk {
    hub: Hub,
}

/// Walk the hub in OpenAI strict mode, which looks into each type of it.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct StrictWalk {
    hub: Hub,
}

fn main() {}
