//! `#[derive(ToolSet)]`: an enum of tools, each variant holding one tool type, dispatched by name.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Data, DeriveInput, Fields};

/// Expands the derive; problems become errors next to a stub impl.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    let ident = &input.ident;
    let mut variants = Vec::new();
    match &input.data {
        Data::Enum(data) => {
            for variant in &data.variants {
                match &variant.fields {
                    Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                        variants.push((&variant.ident, &fields.unnamed[0].ty));
                    }
                    _ => errors.push(
                        darling::Error::custom(format!(
                            "each variant of a ToolSet holds one tool: write `{}(SomeTool)`, \
                             where `SomeTool` derives `Tool`",
                            variant.ident
                        ))
                        .with_span(&variant.ident),
                    ),
                }
            }
            if data.variants.is_empty() {
                errors.push(
                    darling::Error::custom("a ToolSet needs at least one tool variant")
                        .with_span(ident),
                );
            }
        }
        _ => errors.push(
            darling::Error::custom(
                "#[derive(ToolSet)] needs an enum with one variant per tool: `enum Tools { Weather(GetWeather), .. }`",
            )
            .with_span(ident),
        ),
    }
    if !input.generics.params.is_empty() {
        errors.push(
            darling::Error::custom(
                "#[derive(ToolSet)] needs a concrete enum, without generic parameters",
            )
            .with_span(&input.generics.params),
        );
    }
    if let Err(errors) = errors.finish() {
        // A stub impl beside the errors, so uses of the set do not each fail again.
        let errors = errors.write_errors();
        let stub = input
            .generics
            .params
            .is_empty()
            .then(|| super::fallback::tool_set_stub(ident));
        return quote!(#errors #stub);
    }
    expand_tool_set(ident, &variants)
}

/// The `ToolSet` impl, dispatch by name, and the `Dispatch` impl for every context all the tools
/// have a handler for; `variants`: each variant's name and the tool type it holds.
fn expand_tool_set(ident: &syn::Ident, variants: &[(&syn::Ident, &syn::Type)]) -> TokenStream {
    let names: Vec<&syn::Ident> = variants.iter().map(|(name, _)| *name).collect();
    let tools: Vec<&syn::Type> = variants.iter().map(|(_, ty)| *ty).collect();
    let unique = quote_spanned! {ident.span()=>
        const _: () = ::toolgen::__private::assert_unique_tool_names(&[
            #(<#tools as ::toolgen::__private::Tool>::NAME),*
        ]);
    };
    quote! {
        #[doc(hidden)]
        const _: () = {
            #unique

            #[automatically_derived]
            impl ::toolgen::__private::ToolSet for #ident {
                const NAMES: &'static [&'static str] =
                    &[#(<#tools as ::toolgen::__private::Tool>::NAME),*];

                fn scopes(name: &str) -> &'static [&'static str] {
                    #(
                        if name == <#tools as ::toolgen::__private::Tool>::NAME {
                            return <#tools as ::toolgen::__private::Tool>::SCOPES;
                        }
                    )*
                    &[]
                }

                fn definitions(
                    provider: ::toolgen::__private::Provider,
                ) -> ::toolgen::__private::serde_json::Value {
                    ::toolgen::__private::serde_json::Value::Array(::std::vec![
                        #(<#tools as ::toolgen::__private::Tool>::definition(provider)),*
                    ])
                }

                fn parse_call(
                    call: &::toolgen::__private::ToolCall,
                ) -> ::core::result::Result<Self, ::toolgen::__private::ArgsError> {
                    let name = call.name.as_str();
                    #(
                        if name == <#tools as ::toolgen::__private::Tool>::NAME {
                            return <#tools as ::toolgen::__private::Tool>::parse_args(&call.arguments)
                                .map(#ident::#names);
                        }
                    )*
                    ::core::result::Result::Err(::toolgen::__private::ArgsError::unknown_tool(
                        name,
                        <Self as ::toolgen::__private::ToolSet>::NAMES,
                    ))
                }

                fn needs_approval(name: &str) -> bool {
                    #(
                        if name == <#tools as ::toolgen::__private::Tool>::NAME {
                            return <#tools as ::toolgen::__private::Tool>::NEEDS_APPROVAL;
                        }
                    )*
                    false
                }
            }

            // For every context all the tools have a handler for; checked only where used.
            #[automatically_derived]
            impl<__ToolgenCtx> ::toolgen::__private::Dispatch<__ToolgenCtx> for #ident
            where
                __ToolgenCtx: ?::core::marker::Sized + ::core::marker::Sync,
                #(#tools: ::toolgen::__private::Handler<__ToolgenCtx>,)*
            {
                fn dispatch<'a>(
                    self,
                    ctx: &'a __ToolgenCtx,
                    call: &'a ::toolgen::__private::Invocation<'a>,
                ) -> ::toolgen::__private::CallFuture<'a>
                where
                    Self: 'a,
                {
                    match self {
                        #(#ident::#names(tool) => ::std::boxed::Box::pin(
                            ::toolgen::__private::handle(tool, ctx, call),
                        ),)*
                    }
                }

                fn timeout(&self) -> ::core::option::Option<::core::time::Duration> {
                    match self {
                        #(#ident::#names(_) => <#tools as ::toolgen::__private::Tool>::TIMEOUT,)*
                    }
                }

                fn output_schema(
                    name: &str,
                ) -> ::core::option::Option<::std::string::String> {
                    #(
                        if name == <#tools as ::toolgen::__private::Tool>::NAME {
                            return ::toolgen::__private::tool_output_schema::<#tools, __ToolgenCtx>();
                        }
                    )*
                    ::core::option::Option::None
                }
            }
        };
    }
}
