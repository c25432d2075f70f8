// A type that leads to more types of yours than the derive's search for a way back looks
// through (256): `Outer.wide` holds `Wide`, which holds 257 types that each hold another. The
// build stops once, at the field, with the fix.
use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
pub struct End {
    pub n: u32,
}

macro_rules! leaves {
    ($($name:ident,)*) => {$(
        #[derive(ToolSchema, Deserialize)]
        pub struct $name {
            pub end: End,
        }
    )*};
}

leaves! {
    L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15, L16, L17, L18, L19,
    L20, L21, L22, L23, L24, L25, L26, L27, L28, L29, L30, L31, L32, L33, L34, L35, L36, L37,
    L38, L39, L40, L41, L42, L43, L44, L45, L46, L47, L48, L49, L50, L51, L52, L53, L54, L55,
    L56, L57, L58, L59, L60, L61, L62, L63, L64, L65, L66, L67, L68, L69, L70, L71, L72, L73,
    L74, L75, L76, L77, L78, L79, L80, L81, L82, L83, L84, L85, L86, L87, L88, L89, L90, L91,
    L92, L93, L94, L95, L96, L97, L98, L99, L100, L101, L102, L103, L104, L105, L106, L107,
    L108, L109, L110, L111, L112, L113, L114, L115, L116, L117, L118, L119, L120, L121, L122,
    L123, L124, L125, L126, L127, L128, L129, L130, L131, L132, L133, L134, L135, L136, L137,
    L138, L139, L140, L141, L142, L143, L144, L145, L146, L147, L148, L149, L150, L151, L152,
    L153, L154, L155, L156, L157, L158, L159, L160, L161, L162, L163, L164, L165, L166, L167,
    L168, L169, L170, L171, L172, L173, L174, L175, L176, L177, L178, L179, L180, L181, L182,
    L183, L184, L185, L186, L187, L188, L189, L190, L191, L192, L193, L194, L195, L196, L197,
    L198, L199, L200, L201, L202, L203, L204, L205, L206, L207, L208, L209, L210, L211, L212,
    L213, L214, L215, L216, L217, L218, L219, L220, L221, L222, L223, L224, L225, L226, L227,
    L228, L229, L230, L231, L232, L233, L234, L235, L236, L237, L238, L239, L240, L241, L242,
    L243, L244, L245, L246, L247, L248, L249, L250, L251, L252, L253, L254, L255, L256,
}

macro_rules! wide {
    ($($field:ident: $ty:ident,)*) => {
        #[derive(ToolSchema, Deserialize)]
        pub struct Wide {
            $(pub $field: $ty,)*
        }
    };
}

wide! {
    l0: L0, l1: L1, l2: L2, l3: L3, l4: L4, l5: L5, l6: L6, l7: L7, l8: L8, l9: L9, l10: L10,
    l11: L11, l12: L12, l13: L13, l14: L14, l15: L15, l16: L16, l17: L17, l18: L18, l19: L19,
    l20: L20, l21: L21, l22: L22, l23: L23, l24: L24, l25: L25, l26: L26, l27: L27, l28: L28,
    l29: L29, l30: L30, l31: L31, l32: L32, l33: L33, l34: L34, l35: L35, l36: L36, l37: L37,
    l38: L38, l39: L39, l40: L40, l41: L41, l42: L42, l43: L43, l44: L44, l45: L45, l46: L46,
    l47: L47, l48: L48, l49: L49, l50: L50, l51: L51, l52: L52, l53: L53, l54: L54, l55: L55,
    l56: L56, l57: L57, l58: L58, l59: L59, l60: L60, l61: L61, l62: L62, l63: L63, l64: L64,
    l65: L65, l66: L66, l67: L67, l68: L68, l69: L69, l70: L70, l71: L71, l72: L72, l73: L73,
    l74: L74, l75: L75, l76: L76, l77: L77, l78: L78, l79: L79, l80: L80, l81: L81, l82: L82,
    l83: L83, l84: L84, l85: L85, l86: L86, l87: L87, l88: L88, l89: L89, l90: L90, l91: L91,
    l92: L92, l93: L93, l94: L94, l95: L95, l96: L96, l97: L97, l98: L98, l99: L99, l100: L100,
    l101: L101, l102: L102, l103: L103, l104: L104, l105: L105, l106: L106, l107: L107,
    l108: L108, l109: L109, l110: L110, l111: L111, l112: L112, l113: L113, l114: L114,
    l115: L115, l116: L116, l117: L117, l118: L118, l119: L119, l120: L120, l121: L121,
    l122: L122, l123: L123, l124: L124, l125: L125, l126: L126, l127: L127, l128: L128,
    l129: L129, l130: L130, l131: L131, l132: L132, l133: L133, l134: L134, l135: L135,
    l136: L136, l137: L137, l138: L138, l139: L139, l140: L140, l141: L141, l142: L142,
    l143: L143, l144: L144, l145: L145, l146: L146, l147: L147, l148: L148, l149: L149,
    l150: L150, l151: L151, l152: L152, l153: L153, l154: L154, l155: L155, l156: L156,
    l157: L157, l158: L158, l159: L159, l160: L160, l161: L161, l162: L162, l163: L163,
    l164: L164, l165: L165, l166: L166, l167: L167, l168: L168, l169: L169, l170: L170,
    l171: L171, l172: L172, l173: L173, l174: L174, l175: L175, l176: L176, l177: L177,
    l178: L178, l179: L179, l180: L180, l181: L181, l182: L182, l183: L183, l184: L184,
    l185: L185, l186: L186, l187: L187, l188: L188, l189: L189, l190: L190, l191: L191,
    l192: L192, l193: L193, l194: L194, l195: L195, l196: L196, l197: L197, l198: L198,
    l199: L199, l200: L200, l201: L201, l202: L202, l203: L203, l204: L204, l205: L205,
    l206: L206, l207: L207, l208: L208, l209: L209, l210: L210, l211: L211, l212: L212,
    l213: L213, l214: L214, l215: L215, l216: L216, l217: L217, l218: L218, l219: L219,
    l220: L220, l221: L221, l222: L222, l223: L223, l224: L224, l225: L225, l226: L226,
    l227: L227, l228: L228, l229: L229, l230: L230, l231: L231, l232: L232, l233: L233,
    l234: L234, l235: L235, l236: L236, l237: L237, l238: L238, l239: L239, l240: L240,
    l241: L241, l242: L242, l243: L243, l244: L244, l245: L245, l246: L246, l247: L247,
    l248: L248, l249: L249, l250: L250, l251: L251, l252: L252, l253: L253, l254: L254,
    l255: L255, l256: L256,
}

#[derive(ToolSchema, Deserialize)]
pub struct Outer {
    pub wide: Wide,
}

fn main() {}
