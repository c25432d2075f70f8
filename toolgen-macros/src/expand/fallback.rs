//! What a failed derive still emits beside its errors: impls with placeholder values, so the user
//! sees the real error once instead of a cascade of "`X` does not implement `ToolSchema`".

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;
use syn::ext::IdentExt as _;

use crate::shape::Derive;

pub fn stub(input: &DeriveInput, derive: Derive) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // The bound holds exactly when `Tool`'s supertrait does, so the stub applies only then: for a
    // union, or a type whose `Deserialize` derive failed too, it adds no "`X: Deserialize` is not
    // satisfied" error of its own. (`for<'__toolgen>` keeps the bound from being "trivial", which
    // rustc would check at the impl: https://github.com/rust-lang/rust/issues/48214.)
    let tool = (derive == Derive::Tool && input.generics.params.is_empty()).then(|| {
        quote! {
            #[automatically_derived]
            impl ::toolgen::__private::Tool for #ident
            where
                for<'__toolgen> #ident: ::toolgen::__private::serde::de::DeserializeOwned,
            {
                const NAME: &'static str = "";
                const DESCRIPTION: &'static str = "";
                const INPUT_SCHEMA: &'static str = "{}";
            }
        }
    });
    // With the `schemars1` feature, a stub `JsonSchema` too, for the types that hold this one.
    let schemars = super::schemars_impl(
        &super::ImplParts {
            ident,
            impl_generics: quote!(#impl_generics),
            ty_generics: quote!(#ty_generics),
            where_clause: quote!(#where_clause),
        },
        &ident.unraw().to_string(),
        false,
    );
    quote! {
        #[doc(hidden)]
        const _: () = {
            #schemars
            #[automatically_derived]
            impl #impl_generics ::toolgen::__private::Sealed for #ident #ty_generics #where_clause {}
            #[automatically_derived]
            impl #impl_generics ::toolgen::__private::ToolSchema for #ident #ty_generics #where_clause {
                const SCHEMA: ::toolgen::__private::Rope = ::toolgen::__private::Rope::Str("{}");
            }
            #tool
        };
    }
}

/// What a failed `#[derive(ToolSet)]` emits beside its errors: an empty set, so that uses of the
/// set do not each fail again.
pub fn tool_set_stub(ident: &syn::Ident) -> TokenStream {
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl ::toolgen::__private::ToolSet for #ident {
                const NAMES: &'static [&'static str] = &[];
                fn definitions(
                    _: ::toolgen::__private::Provider,
                ) -> ::toolgen::__private::serde_json::Value {
                    ::toolgen::__private::serde_json::Value::Array(::std::vec::Vec::new())
                }
                fn parse_call(
                    call: &::toolgen::__private::ToolCall,
                ) -> ::core::result::Result<Self, ::toolgen::__private::ArgsError> {
                    ::core::result::Result::Err(::toolgen::__private::ArgsError::unknown_tool(
                        call.name.as_str(),
                        &[],
                    ))
                }
            }
        };
    }
}
