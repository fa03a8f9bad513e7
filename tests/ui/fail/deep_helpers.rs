//! Generated, do not edit by hand: a chain of 1,000 helpers, each calling the previous. Rust accepts it; the macro
//! must neither overflow rustc's stack nor blame itself, but refuse it at the token that
//! passes its documented nesting limit.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn h0(x: f32) -> f32 {
        x
    }

    fn h1(x: f32) -> f32 {
        h0(x)
    }

    fn h2(x: f32) -> f32 {
        h1(x)
    }

    fn h3(x: f32) -> f32 {
        h2(x)
    }

    fn h4(x: f32) -> f32 {
        h3(x)
    }

    fn h5(x: f32) -> f32 {
        h4(x)
    }

    fn h6(x: f32) -> f32 {
        h5(x)
    }

    fn h7(x: f32) -> f32 {
        h6(x)
    }

    fn h8(x: f32) -> f32 {
        h7(x)
    }

    fn h9(x: f32) -> f32 {
        h8(x)
    }

    fn h10(x: f32) -> f32 {
        h9(x)
    }

    fn h11(x: f32) -> f32 {
        h10(x)
    }

    fn h12(x: f32) -> f32 {
        h11(x)
    }

    fn h13(x: f32) -> f32 {
        h12(x)
    }

    fn h14(x: f32) -> f32 {
        h13(x)
    }

    fn h15(x: f32) -> f32 {
        h14(x)
    }

    fn h16(x: f32) -> f32 {
        h15(x)
    }

    fn h17(x: f32) -> f32 {
        h16(x)
    }

    fn h18(x: f32) -> f32 {
        h17(x)
    }

    fn h19(x: f32) -> f32 {
        h18(x)
    }

    fn h20(x: f32) -> f32 {
        h19(x)
    }

    fn h21(x: f32) -> f32 {
        h20(x)
    }

    fn h22(x: f32) -> f32 {
        h21(x)
    }

    fn h23(x: f32) -> f32 {
        h22(x)
    }

    fn h24(x: f32) -> f32 {
        h23(x)
    }

    fn h25(x: f32) -> f32 {
        h24(x)
    }

    fn h26(x: f32) -> f32 {
        h25(x)
    }

    fn h27(x: f32) -> f32 {
        h26(x)
    }

    fn h28(x: f32) -> f32 {
        h27(x)
    }

    fn h29(x: f32) -> f32 {
        h28(x)
    }

    fn h30(x: f32) -> f32 {
        h29(x)
    }

    fn h31(x: f32) -> f32 {
        h30(x)
    }

    fn h32(x: f32) -> f32 {
        h31(x)
    }

    fn h33(x: f32) -> f32 {
        h32(x)
    }

    fn h34(x: f32) -> f32 {
        h33(x)
    }

    fn h35(x: f32) -> f32 {
        h34(x)
    }

    fn h36(x: f32) -> f32 {
        h35(x)
    }

    fn h37(x: f32) -> f32 {
        h36(x)
    }

    fn h38(x: f32) -> f32 {
        h37(x)
    }

    fn h39(x: f32) -> f32 {
        h38(x)
    }

    fn h40(x: f32) -> f32 {
        h39(x)
    }

    fn h41(x: f32) -> f32 {
        h40(x)
    }

    fn h42(x: f32) -> f32 {
        h41(x)
    }

    fn h43(x: f32) -> f32 {
        h42(x)
    }

    fn h44(x: f32) -> f32 {
        h43(x)
    }

    fn h45(x: f32) -> f32 {
        h44(x)
    }

    fn h46(x: f32) -> f32 {
        h45(x)
    }

    fn h47(x: f32) -> f32 {
        h46(x)
    }

    fn h48(x: f32) -> f32 {
        h47(x)
    }

    fn h49(x: f32) -> f32 {
        h48(x)
    }

    fn h50(x: f32) -> f32 {
        h49(x)
    }

    fn h51(x: f32) -> f32 {
        h50(x)
    }

    fn h52(x: f32) -> f32 {
        h51(x)
    }

    fn h53(x: f32) -> f32 {
        h52(x)
    }

    fn h54(x: f32) -> f32 {
        h53(x)
    }

    fn h55(x: f32) -> f32 {
        h54(x)
    }

    fn h56(x: f32) -> f32 {
        h55(x)
    }

    fn h57(x: f32) -> f32 {
        h56(x)
    }

    fn h58(x: f32) -> f32 {
        h57(x)
    }

    fn h59(x: f32) -> f32 {
        h58(x)
    }

    fn h60(x: f32) -> f32 {
        h59(x)
    }

    fn h61(x: f32) -> f32 {
        h60(x)
    }

    fn h62(x: f32) -> f32 {
        h61(x)
    }

    fn h63(x: f32) -> f32 {
        h62(x)
    }

    fn h64(x: f32) -> f32 {
        h63(x)
    }

    fn h65(x: f32) -> f32 {
        h64(x)
    }

    fn h66(x: f32) -> f32 {
        h65(x)
    }

    fn h67(x: f32) -> f32 {
        h66(x)
    }

    fn h68(x: f32) -> f32 {
        h67(x)
    }

    fn h69(x: f32) -> f32 {
        h68(x)
    }

    fn h70(x: f32) -> f32 {
        h69(x)
    }

    fn h71(x: f32) -> f32 {
        h70(x)
    }

    fn h72(x: f32) -> f32 {
        h71(x)
    }

    fn h73(x: f32) -> f32 {
        h72(x)
    }

    fn h74(x: f32) -> f32 {
        h73(x)
    }

    fn h75(x: f32) -> f32 {
        h74(x)
    }

    fn h76(x: f32) -> f32 {
        h75(x)
    }

    fn h77(x: f32) -> f32 {
        h76(x)
    }

    fn h78(x: f32) -> f32 {
        h77(x)
    }

    fn h79(x: f32) -> f32 {
        h78(x)
    }

    fn h80(x: f32) -> f32 {
        h79(x)
    }

    fn h81(x: f32) -> f32 {
        h80(x)
    }

    fn h82(x: f32) -> f32 {
        h81(x)
    }

    fn h83(x: f32) -> f32 {
        h82(x)
    }

    fn h84(x: f32) -> f32 {
        h83(x)
    }

    fn h85(x: f32) -> f32 {
        h84(x)
    }

    fn h86(x: f32) -> f32 {
        h85(x)
    }

    fn h87(x: f32) -> f32 {
        h86(x)
    }

    fn h88(x: f32) -> f32 {
        h87(x)
    }

    fn h89(x: f32) -> f32 {
        h88(x)
    }

    fn h90(x: f32) -> f32 {
        h89(x)
    }

    fn h91(x: f32) -> f32 {
        h90(x)
    }

    fn h92(x: f32) -> f32 {
        h91(x)
    }

    fn h93(x: f32) -> f32 {
        h92(x)
    }

    fn h94(x: f32) -> f32 {
        h93(x)
    }

    fn h95(x: f32) -> f32 {
        h94(x)
    }

    fn h96(x: f32) -> f32 {
        h95(x)
    }

    fn h97(x: f32) -> f32 {
        h96(x)
    }

    fn h98(x: f32) -> f32 {
        h97(x)
    }

    fn h99(x: f32) -> f32 {
        h98(x)
    }

    fn h100(x: f32) -> f32 {
        h99(x)
    }

    fn h101(x: f32) -> f32 {
        h100(x)
    }

    fn h102(x: f32) -> f32 {
        h101(x)
    }

    fn h103(x: f32) -> f32 {
        h102(x)
    }

    fn h104(x: f32) -> f32 {
        h103(x)
    }

    fn h105(x: f32) -> f32 {
        h104(x)
    }

    fn h106(x: f32) -> f32 {
        h105(x)
    }

    fn h107(x: f32) -> f32 {
        h106(x)
    }

    fn h108(x: f32) -> f32 {
        h107(x)
    }

    fn h109(x: f32) -> f32 {
        h108(x)
    }

    fn h110(x: f32) -> f32 {
        h109(x)
    }

    fn h111(x: f32) -> f32 {
        h110(x)
    }

    fn h112(x: f32) -> f32 {
        h111(x)
    }

    fn h113(x: f32) -> f32 {
        h112(x)
    }

    fn h114(x: f32) -> f32 {
        h113(x)
    }

    fn h115(x: f32) -> f32 {
        h114(x)
    }

    fn h116(x: f32) -> f32 {
        h115(x)
    }

    fn h117(x: f32) -> f32 {
        h116(x)
    }

    fn h118(x: f32) -> f32 {
        h117(x)
    }

    fn h119(x: f32) -> f32 {
        h118(x)
    }

    fn h120(x: f32) -> f32 {
        h119(x)
    }

    fn h121(x: f32) -> f32 {
        h120(x)
    }

    fn h122(x: f32) -> f32 {
        h121(x)
    }

    fn h123(x: f32) -> f32 {
        h122(x)
    }

    fn h124(x: f32) -> f32 {
        h123(x)
    }

    fn h125(x: f32) -> f32 {
        h124(x)
    }

    fn h126(x: f32) -> f32 {
        h125(x)
    }

    fn h127(x: f32) -> f32 {
        h126(x)
    }

    fn h128(x: f32) -> f32 {
        h127(x)
    }

    fn h129(x: f32) -> f32 {
        h128(x)
    }

    fn h130(x: f32) -> f32 {
        h129(x)
    }

    fn h131(x: f32) -> f32 {
        h130(x)
    }

    fn h132(x: f32) -> f32 {
        h131(x)
    }

    fn h133(x: f32) -> f32 {
        h132(x)
    }

    fn h134(x: f32) -> f32 {
        h133(x)
    }

    fn h135(x: f32) -> f32 {
        h134(x)
    }

    fn h136(x: f32) -> f32 {
        h135(x)
    }

    fn h137(x: f32) -> f32 {
        h136(x)
    }

    fn h138(x: f32) -> f32 {
        h137(x)
    }

    fn h139(x: f32) -> f32 {
        h138(x)
    }

    fn h140(x: f32) -> f32 {
        h139(x)
    }

    fn h141(x: f32) -> f32 {
        h140(x)
    }

    fn h142(x: f32) -> f32 {
        h141(x)
    }

    fn h143(x: f32) -> f32 {
        h142(x)
    }

    fn h144(x: f32) -> f32 {
        h143(x)
    }

    fn h145(x: f32) -> f32 {
        h144(x)
    }

    fn h146(x: f32) -> f32 {
        h145(x)
    }

    fn h147(x: f32) -> f32 {
        h146(x)
    }

    fn h148(x: f32) -> f32 {
        h147(x)
    }

    fn h149(x: f32) -> f32 {
        h148(x)
    }

    fn h150(x: f32) -> f32 {
        h149(x)
    }

    fn h151(x: f32) -> f32 {
        h150(x)
    }

    fn h152(x: f32) -> f32 {
        h151(x)
    }

    fn h153(x: f32) -> f32 {
        h152(x)
    }

    fn h154(x: f32) -> f32 {
        h153(x)
    }

    fn h155(x: f32) -> f32 {
        h154(x)
    }

    fn h156(x: f32) -> f32 {
        h155(x)
    }

    fn h157(x: f32) -> f32 {
        h156(x)
    }

    fn h158(x: f32) -> f32 {
        h157(x)
    }

    fn h159(x: f32) -> f32 {
        h158(x)
    }

    fn h160(x: f32) -> f32 {
        h159(x)
    }

    fn h161(x: f32) -> f32 {
        h160(x)
    }

    fn h162(x: f32) -> f32 {
        h161(x)
    }

    fn h163(x: f32) -> f32 {
        h162(x)
    }

    fn h164(x: f32) -> f32 {
        h163(x)
    }

    fn h165(x: f32) -> f32 {
        h164(x)
    }

    fn h166(x: f32) -> f32 {
        h165(x)
    }

    fn h167(x: f32) -> f32 {
        h166(x)
    }

    fn h168(x: f32) -> f32 {
        h167(x)
    }

    fn h169(x: f32) -> f32 {
        h168(x)
    }

    fn h170(x: f32) -> f32 {
        h169(x)
    }

    fn h171(x: f32) -> f32 {
        h170(x)
    }

    fn h172(x: f32) -> f32 {
        h171(x)
    }

    fn h173(x: f32) -> f32 {
        h172(x)
    }

    fn h174(x: f32) -> f32 {
        h173(x)
    }

    fn h175(x: f32) -> f32 {
        h174(x)
    }

    fn h176(x: f32) -> f32 {
        h175(x)
    }

    fn h177(x: f32) -> f32 {
        h176(x)
    }

    fn h178(x: f32) -> f32 {
        h177(x)
    }

    fn h179(x: f32) -> f32 {
        h178(x)
    }

    fn h180(x: f32) -> f32 {
        h179(x)
    }

    fn h181(x: f32) -> f32 {
        h180(x)
    }

    fn h182(x: f32) -> f32 {
        h181(x)
    }

    fn h183(x: f32) -> f32 {
        h182(x)
    }

    fn h184(x: f32) -> f32 {
        h183(x)
    }

    fn h185(x: f32) -> f32 {
        h184(x)
    }

    fn h186(x: f32) -> f32 {
        h185(x)
    }

    fn h187(x: f32) -> f32 {
        h186(x)
    }

    fn h188(x: f32) -> f32 {
        h187(x)
    }

    fn h189(x: f32) -> f32 {
        h188(x)
    }

    fn h190(x: f32) -> f32 {
        h189(x)
    }

    fn h191(x: f32) -> f32 {
        h190(x)
    }

    fn h192(x: f32) -> f32 {
        h191(x)
    }

    fn h193(x: f32) -> f32 {
        h192(x)
    }

    fn h194(x: f32) -> f32 {
        h193(x)
    }

    fn h195(x: f32) -> f32 {
        h194(x)
    }

    fn h196(x: f32) -> f32 {
        h195(x)
    }

    fn h197(x: f32) -> f32 {
        h196(x)
    }

    fn h198(x: f32) -> f32 {
        h197(x)
    }

    fn h199(x: f32) -> f32 {
        h198(x)
    }

    fn h200(x: f32) -> f32 {
        h199(x)
    }

    fn h201(x: f32) -> f32 {
        h200(x)
    }

    fn h202(x: f32) -> f32 {
        h201(x)
    }

    fn h203(x: f32) -> f32 {
        h202(x)
    }

    fn h204(x: f32) -> f32 {
        h203(x)
    }

    fn h205(x: f32) -> f32 {
        h204(x)
    }

    fn h206(x: f32) -> f32 {
        h205(x)
    }

    fn h207(x: f32) -> f32 {
        h206(x)
    }

    fn h208(x: f32) -> f32 {
        h207(x)
    }

    fn h209(x: f32) -> f32 {
        h208(x)
    }

    fn h210(x: f32) -> f32 {
        h209(x)
    }

    fn h211(x: f32) -> f32 {
        h210(x)
    }

    fn h212(x: f32) -> f32 {
        h211(x)
    }

    fn h213(x: f32) -> f32 {
        h212(x)
    }

    fn h214(x: f32) -> f32 {
        h213(x)
    }

    fn h215(x: f32) -> f32 {
        h214(x)
    }

    fn h216(x: f32) -> f32 {
        h215(x)
    }

    fn h217(x: f32) -> f32 {
        h216(x)
    }

    fn h218(x: f32) -> f32 {
        h217(x)
    }

    fn h219(x: f32) -> f32 {
        h218(x)
    }

    fn h220(x: f32) -> f32 {
        h219(x)
    }

    fn h221(x: f32) -> f32 {
        h220(x)
    }

    fn h222(x: f32) -> f32 {
        h221(x)
    }

    fn h223(x: f32) -> f32 {
        h222(x)
    }

    fn h224(x: f32) -> f32 {
        h223(x)
    }

    fn h225(x: f32) -> f32 {
        h224(x)
    }

    fn h226(x: f32) -> f32 {
        h225(x)
    }

    fn h227(x: f32) -> f32 {
        h226(x)
    }

    fn h228(x: f32) -> f32 {
        h227(x)
    }

    fn h229(x: f32) -> f32 {
        h228(x)
    }

    fn h230(x: f32) -> f32 {
        h229(x)
    }

    fn h231(x: f32) -> f32 {
        h230(x)
    }

    fn h232(x: f32) -> f32 {
        h231(x)
    }

    fn h233(x: f32) -> f32 {
        h232(x)
    }

    fn h234(x: f32) -> f32 {
        h233(x)
    }

    fn h235(x: f32) -> f32 {
        h234(x)
    }

    fn h236(x: f32) -> f32 {
        h235(x)
    }

    fn h237(x: f32) -> f32 {
        h236(x)
    }

    fn h238(x: f32) -> f32 {
        h237(x)
    }

    fn h239(x: f32) -> f32 {
        h238(x)
    }

    fn h240(x: f32) -> f32 {
        h239(x)
    }

    fn h241(x: f32) -> f32 {
        h240(x)
    }

    fn h242(x: f32) -> f32 {
        h241(x)
    }

    fn h243(x: f32) -> f32 {
        h242(x)
    }

    fn h244(x: f32) -> f32 {
        h243(x)
    }

    fn h245(x: f32) -> f32 {
        h244(x)
    }

    fn h246(x: f32) -> f32 {
        h245(x)
    }

    fn h247(x: f32) -> f32 {
        h246(x)
    }

    fn h248(x: f32) -> f32 {
        h247(x)
    }

    fn h249(x: f32) -> f32 {
        h248(x)
    }

    fn h250(x: f32) -> f32 {
        h249(x)
    }

    fn h251(x: f32) -> f32 {
        h250(x)
    }

    fn h252(x: f32) -> f32 {
        h251(x)
    }

    fn h253(x: f32) -> f32 {
        h252(x)
    }

    fn h254(x: f32) -> f32 {
        h253(x)
    }

    fn h255(x: f32) -> f32 {
        h254(x)
    }

    fn h256(x: f32) -> f32 {
        h255(x)
    }

    fn h257(x: f32) -> f32 {
        h256(x)
    }

    fn h258(x: f32) -> f32 {
        h257(x)
    }

    fn h259(x: f32) -> f32 {
        h258(x)
    }

    fn h260(x: f32) -> f32 {
        h259(x)
    }

    fn h261(x: f32) -> f32 {
        h260(x)
    }

    fn h262(x: f32) -> f32 {
        h261(x)
    }

    fn h263(x: f32) -> f32 {
        h262(x)
    }

    fn h264(x: f32) -> f32 {
        h263(x)
    }

    fn h265(x: f32) -> f32 {
        h264(x)
    }

    fn h266(x: f32) -> f32 {
        h265(x)
    }

    fn h267(x: f32) -> f32 {
        h266(x)
    }

    fn h268(x: f32) -> f32 {
        h267(x)
    }

    fn h269(x: f32) -> f32 {
        h268(x)
    }

    fn h270(x: f32) -> f32 {
        h269(x)
    }

    fn h271(x: f32) -> f32 {
        h270(x)
    }

    fn h272(x: f32) -> f32 {
        h271(x)
    }

    fn h273(x: f32) -> f32 {
        h272(x)
    }

    fn h274(x: f32) -> f32 {
        h273(x)
    }

    fn h275(x: f32) -> f32 {
        h274(x)
    }

    fn h276(x: f32) -> f32 {
        h275(x)
    }

    fn h277(x: f32) -> f32 {
        h276(x)
    }

    fn h278(x: f32) -> f32 {
        h277(x)
    }

    fn h279(x: f32) -> f32 {
        h278(x)
    }

    fn h280(x: f32) -> f32 {
        h279(x)
    }

    fn h281(x: f32) -> f32 {
        h280(x)
    }

    fn h282(x: f32) -> f32 {
        h281(x)
    }

    fn h283(x: f32) -> f32 {
        h282(x)
    }

    fn h284(x: f32) -> f32 {
        h283(x)
    }

    fn h285(x: f32) -> f32 {
        h284(x)
    }

    fn h286(x: f32) -> f32 {
        h285(x)
    }

    fn h287(x: f32) -> f32 {
        h286(x)
    }

    fn h288(x: f32) -> f32 {
        h287(x)
    }

    fn h289(x: f32) -> f32 {
        h288(x)
    }

    fn h290(x: f32) -> f32 {
        h289(x)
    }

    fn h291(x: f32) -> f32 {
        h290(x)
    }

    fn h292(x: f32) -> f32 {
        h291(x)
    }

    fn h293(x: f32) -> f32 {
        h292(x)
    }

    fn h294(x: f32) -> f32 {
        h293(x)
    }

    fn h295(x: f32) -> f32 {
        h294(x)
    }

    fn h296(x: f32) -> f32 {
        h295(x)
    }

    fn h297(x: f32) -> f32 {
        h296(x)
    }

    fn h298(x: f32) -> f32 {
        h297(x)
    }

    fn h299(x: f32) -> f32 {
        h298(x)
    }

    fn h300(x: f32) -> f32 {
        h299(x)
    }

    fn h301(x: f32) -> f32 {
        h300(x)
    }

    fn h302(x: f32) -> f32 {
        h301(x)
    }

    fn h303(x: f32) -> f32 {
        h302(x)
    }

    fn h304(x: f32) -> f32 {
        h303(x)
    }

    fn h305(x: f32) -> f32 {
        h304(x)
    }

    fn h306(x: f32) -> f32 {
        h305(x)
    }

    fn h307(x: f32) -> f32 {
        h306(x)
    }

    fn h308(x: f32) -> f32 {
        h307(x)
    }

    fn h309(x: f32) -> f32 {
        h308(x)
    }

    fn h310(x: f32) -> f32 {
        h309(x)
    }

    fn h311(x: f32) -> f32 {
        h310(x)
    }

    fn h312(x: f32) -> f32 {
        h311(x)
    }

    fn h313(x: f32) -> f32 {
        h312(x)
    }

    fn h314(x: f32) -> f32 {
        h313(x)
    }

    fn h315(x: f32) -> f32 {
        h314(x)
    }

    fn h316(x: f32) -> f32 {
        h315(x)
    }

    fn h317(x: f32) -> f32 {
        h316(x)
    }

    fn h318(x: f32) -> f32 {
        h317(x)
    }

    fn h319(x: f32) -> f32 {
        h318(x)
    }

    fn h320(x: f32) -> f32 {
        h319(x)
    }

    fn h321(x: f32) -> f32 {
        h320(x)
    }

    fn h322(x: f32) -> f32 {
        h321(x)
    }

    fn h323(x: f32) -> f32 {
        h322(x)
    }

    fn h324(x: f32) -> f32 {
        h323(x)
    }

    fn h325(x: f32) -> f32 {
        h324(x)
    }

    fn h326(x: f32) -> f32 {
        h325(x)
    }

    fn h327(x: f32) -> f32 {
        h326(x)
    }

    fn h328(x: f32) -> f32 {
        h327(x)
    }

    fn h329(x: f32) -> f32 {
        h328(x)
    }

    fn h330(x: f32) -> f32 {
        h329(x)
    }

    fn h331(x: f32) -> f32 {
        h330(x)
    }

    fn h332(x: f32) -> f32 {
        h331(x)
    }

    fn h333(x: f32) -> f32 {
        h332(x)
    }

    fn h334(x: f32) -> f32 {
        h333(x)
    }

    fn h335(x: f32) -> f32 {
        h334(x)
    }

    fn h336(x: f32) -> f32 {
        h335(x)
    }

    fn h337(x: f32) -> f32 {
        h336(x)
    }

    fn h338(x: f32) -> f32 {
        h337(x)
    }

    fn h339(x: f32) -> f32 {
        h338(x)
    }

    fn h340(x: f32) -> f32 {
        h339(x)
    }

    fn h341(x: f32) -> f32 {
        h340(x)
    }

    fn h342(x: f32) -> f32 {
        h341(x)
    }

    fn h343(x: f32) -> f32 {
        h342(x)
    }

    fn h344(x: f32) -> f32 {
        h343(x)
    }

    fn h345(x: f32) -> f32 {
        h344(x)
    }

    fn h346(x: f32) -> f32 {
        h345(x)
    }

    fn h347(x: f32) -> f32 {
        h346(x)
    }

    fn h348(x: f32) -> f32 {
        h347(x)
    }

    fn h349(x: f32) -> f32 {
        h348(x)
    }

    fn h350(x: f32) -> f32 {
        h349(x)
    }

    fn h351(x: f32) -> f32 {
        h350(x)
    }

    fn h352(x: f32) -> f32 {
        h351(x)
    }

    fn h353(x: f32) -> f32 {
        h352(x)
    }

    fn h354(x: f32) -> f32 {
        h353(x)
    }

    fn h355(x: f32) -> f32 {
        h354(x)
    }

    fn h356(x: f32) -> f32 {
        h355(x)
    }

    fn h357(x: f32) -> f32 {
        h356(x)
    }

    fn h358(x: f32) -> f32 {
        h357(x)
    }

    fn h359(x: f32) -> f32 {
        h358(x)
    }

    fn h360(x: f32) -> f32 {
        h359(x)
    }

    fn h361(x: f32) -> f32 {
        h360(x)
    }

    fn h362(x: f32) -> f32 {
        h361(x)
    }

    fn h363(x: f32) -> f32 {
        h362(x)
    }

    fn h364(x: f32) -> f32 {
        h363(x)
    }

    fn h365(x: f32) -> f32 {
        h364(x)
    }

    fn h366(x: f32) -> f32 {
        h365(x)
    }

    fn h367(x: f32) -> f32 {
        h366(x)
    }

    fn h368(x: f32) -> f32 {
        h367(x)
    }

    fn h369(x: f32) -> f32 {
        h368(x)
    }

    fn h370(x: f32) -> f32 {
        h369(x)
    }

    fn h371(x: f32) -> f32 {
        h370(x)
    }

    fn h372(x: f32) -> f32 {
        h371(x)
    }

    fn h373(x: f32) -> f32 {
        h372(x)
    }

    fn h374(x: f32) -> f32 {
        h373(x)
    }

    fn h375(x: f32) -> f32 {
        h374(x)
    }

    fn h376(x: f32) -> f32 {
        h375(x)
    }

    fn h377(x: f32) -> f32 {
        h376(x)
    }

    fn h378(x: f32) -> f32 {
        h377(x)
    }

    fn h379(x: f32) -> f32 {
        h378(x)
    }

    fn h380(x: f32) -> f32 {
        h379(x)
    }

    fn h381(x: f32) -> f32 {
        h380(x)
    }

    fn h382(x: f32) -> f32 {
        h381(x)
    }

    fn h383(x: f32) -> f32 {
        h382(x)
    }

    fn h384(x: f32) -> f32 {
        h383(x)
    }

    fn h385(x: f32) -> f32 {
        h384(x)
    }

    fn h386(x: f32) -> f32 {
        h385(x)
    }

    fn h387(x: f32) -> f32 {
        h386(x)
    }

    fn h388(x: f32) -> f32 {
        h387(x)
    }

    fn h389(x: f32) -> f32 {
        h388(x)
    }

    fn h390(x: f32) -> f32 {
        h389(x)
    }

    fn h391(x: f32) -> f32 {
        h390(x)
    }

    fn h392(x: f32) -> f32 {
        h391(x)
    }

    fn h393(x: f32) -> f32 {
        h392(x)
    }

    fn h394(x: f32) -> f32 {
        h393(x)
    }

    fn h395(x: f32) -> f32 {
        h394(x)
    }

    fn h396(x: f32) -> f32 {
        h395(x)
    }

    fn h397(x: f32) -> f32 {
        h396(x)
    }

    fn h398(x: f32) -> f32 {
        h397(x)
    }

    fn h399(x: f32) -> f32 {
        h398(x)
    }

    fn h400(x: f32) -> f32 {
        h399(x)
    }

    fn h401(x: f32) -> f32 {
        h400(x)
    }

    fn h402(x: f32) -> f32 {
        h401(x)
    }

    fn h403(x: f32) -> f32 {
        h402(x)
    }

    fn h404(x: f32) -> f32 {
        h403(x)
    }

    fn h405(x: f32) -> f32 {
        h404(x)
    }

    fn h406(x: f32) -> f32 {
        h405(x)
    }

    fn h407(x: f32) -> f32 {
        h406(x)
    }

    fn h408(x: f32) -> f32 {
        h407(x)
    }

    fn h409(x: f32) -> f32 {
        h408(x)
    }

    fn h410(x: f32) -> f32 {
        h409(x)
    }

    fn h411(x: f32) -> f32 {
        h410(x)
    }

    fn h412(x: f32) -> f32 {
        h411(x)
    }

    fn h413(x: f32) -> f32 {
        h412(x)
    }

    fn h414(x: f32) -> f32 {
        h413(x)
    }

    fn h415(x: f32) -> f32 {
        h414(x)
    }

    fn h416(x: f32) -> f32 {
        h415(x)
    }

    fn h417(x: f32) -> f32 {
        h416(x)
    }

    fn h418(x: f32) -> f32 {
        h417(x)
    }

    fn h419(x: f32) -> f32 {
        h418(x)
    }

    fn h420(x: f32) -> f32 {
        h419(x)
    }

    fn h421(x: f32) -> f32 {
        h420(x)
    }

    fn h422(x: f32) -> f32 {
        h421(x)
    }

    fn h423(x: f32) -> f32 {
        h422(x)
    }

    fn h424(x: f32) -> f32 {
        h423(x)
    }

    fn h425(x: f32) -> f32 {
        h424(x)
    }

    fn h426(x: f32) -> f32 {
        h425(x)
    }

    fn h427(x: f32) -> f32 {
        h426(x)
    }

    fn h428(x: f32) -> f32 {
        h427(x)
    }

    fn h429(x: f32) -> f32 {
        h428(x)
    }

    fn h430(x: f32) -> f32 {
        h429(x)
    }

    fn h431(x: f32) -> f32 {
        h430(x)
    }

    fn h432(x: f32) -> f32 {
        h431(x)
    }

    fn h433(x: f32) -> f32 {
        h432(x)
    }

    fn h434(x: f32) -> f32 {
        h433(x)
    }

    fn h435(x: f32) -> f32 {
        h434(x)
    }

    fn h436(x: f32) -> f32 {
        h435(x)
    }

    fn h437(x: f32) -> f32 {
        h436(x)
    }

    fn h438(x: f32) -> f32 {
        h437(x)
    }

    fn h439(x: f32) -> f32 {
        h438(x)
    }

    fn h440(x: f32) -> f32 {
        h439(x)
    }

    fn h441(x: f32) -> f32 {
        h440(x)
    }

    fn h442(x: f32) -> f32 {
        h441(x)
    }

    fn h443(x: f32) -> f32 {
        h442(x)
    }

    fn h444(x: f32) -> f32 {
        h443(x)
    }

    fn h445(x: f32) -> f32 {
        h444(x)
    }

    fn h446(x: f32) -> f32 {
        h445(x)
    }

    fn h447(x: f32) -> f32 {
        h446(x)
    }

    fn h448(x: f32) -> f32 {
        h447(x)
    }

    fn h449(x: f32) -> f32 {
        h448(x)
    }

    fn h450(x: f32) -> f32 {
        h449(x)
    }

    fn h451(x: f32) -> f32 {
        h450(x)
    }

    fn h452(x: f32) -> f32 {
        h451(x)
    }

    fn h453(x: f32) -> f32 {
        h452(x)
    }

    fn h454(x: f32) -> f32 {
        h453(x)
    }

    fn h455(x: f32) -> f32 {
        h454(x)
    }

    fn h456(x: f32) -> f32 {
        h455(x)
    }

    fn h457(x: f32) -> f32 {
        h456(x)
    }

    fn h458(x: f32) -> f32 {
        h457(x)
    }

    fn h459(x: f32) -> f32 {
        h458(x)
    }

    fn h460(x: f32) -> f32 {
        h459(x)
    }

    fn h461(x: f32) -> f32 {
        h460(x)
    }

    fn h462(x: f32) -> f32 {
        h461(x)
    }

    fn h463(x: f32) -> f32 {
        h462(x)
    }

    fn h464(x: f32) -> f32 {
        h463(x)
    }

    fn h465(x: f32) -> f32 {
        h464(x)
    }

    fn h466(x: f32) -> f32 {
        h465(x)
    }

    fn h467(x: f32) -> f32 {
        h466(x)
    }

    fn h468(x: f32) -> f32 {
        h467(x)
    }

    fn h469(x: f32) -> f32 {
        h468(x)
    }

    fn h470(x: f32) -> f32 {
        h469(x)
    }

    fn h471(x: f32) -> f32 {
        h470(x)
    }

    fn h472(x: f32) -> f32 {
        h471(x)
    }

    fn h473(x: f32) -> f32 {
        h472(x)
    }

    fn h474(x: f32) -> f32 {
        h473(x)
    }

    fn h475(x: f32) -> f32 {
        h474(x)
    }

    fn h476(x: f32) -> f32 {
        h475(x)
    }

    fn h477(x: f32) -> f32 {
        h476(x)
    }

    fn h478(x: f32) -> f32 {
        h477(x)
    }

    fn h479(x: f32) -> f32 {
        h478(x)
    }

    fn h480(x: f32) -> f32 {
        h479(x)
    }

    fn h481(x: f32) -> f32 {
        h480(x)
    }

    fn h482(x: f32) -> f32 {
        h481(x)
    }

    fn h483(x: f32) -> f32 {
        h482(x)
    }

    fn h484(x: f32) -> f32 {
        h483(x)
    }

    fn h485(x: f32) -> f32 {
        h484(x)
    }

    fn h486(x: f32) -> f32 {
        h485(x)
    }

    fn h487(x: f32) -> f32 {
        h486(x)
    }

    fn h488(x: f32) -> f32 {
        h487(x)
    }

    fn h489(x: f32) -> f32 {
        h488(x)
    }

    fn h490(x: f32) -> f32 {
        h489(x)
    }

    fn h491(x: f32) -> f32 {
        h490(x)
    }

    fn h492(x: f32) -> f32 {
        h491(x)
    }

    fn h493(x: f32) -> f32 {
        h492(x)
    }

    fn h494(x: f32) -> f32 {
        h493(x)
    }

    fn h495(x: f32) -> f32 {
        h494(x)
    }

    fn h496(x: f32) -> f32 {
        h495(x)
    }

    fn h497(x: f32) -> f32 {
        h496(x)
    }

    fn h498(x: f32) -> f32 {
        h497(x)
    }

    fn h499(x: f32) -> f32 {
        h498(x)
    }

    fn h500(x: f32) -> f32 {
        h499(x)
    }

    fn h501(x: f32) -> f32 {
        h500(x)
    }

    fn h502(x: f32) -> f32 {
        h501(x)
    }

    fn h503(x: f32) -> f32 {
        h502(x)
    }

    fn h504(x: f32) -> f32 {
        h503(x)
    }

    fn h505(x: f32) -> f32 {
        h504(x)
    }

    fn h506(x: f32) -> f32 {
        h505(x)
    }

    fn h507(x: f32) -> f32 {
        h506(x)
    }

    fn h508(x: f32) -> f32 {
        h507(x)
    }

    fn h509(x: f32) -> f32 {
        h508(x)
    }

    fn h510(x: f32) -> f32 {
        h509(x)
    }

    fn h511(x: f32) -> f32 {
        h510(x)
    }

    fn h512(x: f32) -> f32 {
        h511(x)
    }

    fn h513(x: f32) -> f32 {
        h512(x)
    }

    fn h514(x: f32) -> f32 {
        h513(x)
    }

    fn h515(x: f32) -> f32 {
        h514(x)
    }

    fn h516(x: f32) -> f32 {
        h515(x)
    }

    fn h517(x: f32) -> f32 {
        h516(x)
    }

    fn h518(x: f32) -> f32 {
        h517(x)
    }

    fn h519(x: f32) -> f32 {
        h518(x)
    }

    fn h520(x: f32) -> f32 {
        h519(x)
    }

    fn h521(x: f32) -> f32 {
        h520(x)
    }

    fn h522(x: f32) -> f32 {
        h521(x)
    }

    fn h523(x: f32) -> f32 {
        h522(x)
    }

    fn h524(x: f32) -> f32 {
        h523(x)
    }

    fn h525(x: f32) -> f32 {
        h524(x)
    }

    fn h526(x: f32) -> f32 {
        h525(x)
    }

    fn h527(x: f32) -> f32 {
        h526(x)
    }

    fn h528(x: f32) -> f32 {
        h527(x)
    }

    fn h529(x: f32) -> f32 {
        h528(x)
    }

    fn h530(x: f32) -> f32 {
        h529(x)
    }

    fn h531(x: f32) -> f32 {
        h530(x)
    }

    fn h532(x: f32) -> f32 {
        h531(x)
    }

    fn h533(x: f32) -> f32 {
        h532(x)
    }

    fn h534(x: f32) -> f32 {
        h533(x)
    }

    fn h535(x: f32) -> f32 {
        h534(x)
    }

    fn h536(x: f32) -> f32 {
        h535(x)
    }

    fn h537(x: f32) -> f32 {
        h536(x)
    }

    fn h538(x: f32) -> f32 {
        h537(x)
    }

    fn h539(x: f32) -> f32 {
        h538(x)
    }

    fn h540(x: f32) -> f32 {
        h539(x)
    }

    fn h541(x: f32) -> f32 {
        h540(x)
    }

    fn h542(x: f32) -> f32 {
        h541(x)
    }

    fn h543(x: f32) -> f32 {
        h542(x)
    }

    fn h544(x: f32) -> f32 {
        h543(x)
    }

    fn h545(x: f32) -> f32 {
        h544(x)
    }

    fn h546(x: f32) -> f32 {
        h545(x)
    }

    fn h547(x: f32) -> f32 {
        h546(x)
    }

    fn h548(x: f32) -> f32 {
        h547(x)
    }

    fn h549(x: f32) -> f32 {
        h548(x)
    }

    fn h550(x: f32) -> f32 {
        h549(x)
    }

    fn h551(x: f32) -> f32 {
        h550(x)
    }

    fn h552(x: f32) -> f32 {
        h551(x)
    }

    fn h553(x: f32) -> f32 {
        h552(x)
    }

    fn h554(x: f32) -> f32 {
        h553(x)
    }

    fn h555(x: f32) -> f32 {
        h554(x)
    }

    fn h556(x: f32) -> f32 {
        h555(x)
    }

    fn h557(x: f32) -> f32 {
        h556(x)
    }

    fn h558(x: f32) -> f32 {
        h557(x)
    }

    fn h559(x: f32) -> f32 {
        h558(x)
    }

    fn h560(x: f32) -> f32 {
        h559(x)
    }

    fn h561(x: f32) -> f32 {
        h560(x)
    }

    fn h562(x: f32) -> f32 {
        h561(x)
    }

    fn h563(x: f32) -> f32 {
        h562(x)
    }

    fn h564(x: f32) -> f32 {
        h563(x)
    }

    fn h565(x: f32) -> f32 {
        h564(x)
    }

    fn h566(x: f32) -> f32 {
        h565(x)
    }

    fn h567(x: f32) -> f32 {
        h566(x)
    }

    fn h568(x: f32) -> f32 {
        h567(x)
    }

    fn h569(x: f32) -> f32 {
        h568(x)
    }

    fn h570(x: f32) -> f32 {
        h569(x)
    }

    fn h571(x: f32) -> f32 {
        h570(x)
    }

    fn h572(x: f32) -> f32 {
        h571(x)
    }

    fn h573(x: f32) -> f32 {
        h572(x)
    }

    fn h574(x: f32) -> f32 {
        h573(x)
    }

    fn h575(x: f32) -> f32 {
        h574(x)
    }

    fn h576(x: f32) -> f32 {
        h575(x)
    }

    fn h577(x: f32) -> f32 {
        h576(x)
    }

    fn h578(x: f32) -> f32 {
        h577(x)
    }

    fn h579(x: f32) -> f32 {
        h578(x)
    }

    fn h580(x: f32) -> f32 {
        h579(x)
    }

    fn h581(x: f32) -> f32 {
        h580(x)
    }

    fn h582(x: f32) -> f32 {
        h581(x)
    }

    fn h583(x: f32) -> f32 {
        h582(x)
    }

    fn h584(x: f32) -> f32 {
        h583(x)
    }

    fn h585(x: f32) -> f32 {
        h584(x)
    }

    fn h586(x: f32) -> f32 {
        h585(x)
    }

    fn h587(x: f32) -> f32 {
        h586(x)
    }

    fn h588(x: f32) -> f32 {
        h587(x)
    }

    fn h589(x: f32) -> f32 {
        h588(x)
    }

    fn h590(x: f32) -> f32 {
        h589(x)
    }

    fn h591(x: f32) -> f32 {
        h590(x)
    }

    fn h592(x: f32) -> f32 {
        h591(x)
    }

    fn h593(x: f32) -> f32 {
        h592(x)
    }

    fn h594(x: f32) -> f32 {
        h593(x)
    }

    fn h595(x: f32) -> f32 {
        h594(x)
    }

    fn h596(x: f32) -> f32 {
        h595(x)
    }

    fn h597(x: f32) -> f32 {
        h596(x)
    }

    fn h598(x: f32) -> f32 {
        h597(x)
    }

    fn h599(x: f32) -> f32 {
        h598(x)
    }

    fn h600(x: f32) -> f32 {
        h599(x)
    }

    fn h601(x: f32) -> f32 {
        h600(x)
    }

    fn h602(x: f32) -> f32 {
        h601(x)
    }

    fn h603(x: f32) -> f32 {
        h602(x)
    }

    fn h604(x: f32) -> f32 {
        h603(x)
    }

    fn h605(x: f32) -> f32 {
        h604(x)
    }

    fn h606(x: f32) -> f32 {
        h605(x)
    }

    fn h607(x: f32) -> f32 {
        h606(x)
    }

    fn h608(x: f32) -> f32 {
        h607(x)
    }

    fn h609(x: f32) -> f32 {
        h608(x)
    }

    fn h610(x: f32) -> f32 {
        h609(x)
    }

    fn h611(x: f32) -> f32 {
        h610(x)
    }

    fn h612(x: f32) -> f32 {
        h611(x)
    }

    fn h613(x: f32) -> f32 {
        h612(x)
    }

    fn h614(x: f32) -> f32 {
        h613(x)
    }

    fn h615(x: f32) -> f32 {
        h614(x)
    }

    fn h616(x: f32) -> f32 {
        h615(x)
    }

    fn h617(x: f32) -> f32 {
        h616(x)
    }

    fn h618(x: f32) -> f32 {
        h617(x)
    }

    fn h619(x: f32) -> f32 {
        h618(x)
    }

    fn h620(x: f32) -> f32 {
        h619(x)
    }

    fn h621(x: f32) -> f32 {
        h620(x)
    }

    fn h622(x: f32) -> f32 {
        h621(x)
    }

    fn h623(x: f32) -> f32 {
        h622(x)
    }

    fn h624(x: f32) -> f32 {
        h623(x)
    }

    fn h625(x: f32) -> f32 {
        h624(x)
    }

    fn h626(x: f32) -> f32 {
        h625(x)
    }

    fn h627(x: f32) -> f32 {
        h626(x)
    }

    fn h628(x: f32) -> f32 {
        h627(x)
    }

    fn h629(x: f32) -> f32 {
        h628(x)
    }

    fn h630(x: f32) -> f32 {
        h629(x)
    }

    fn h631(x: f32) -> f32 {
        h630(x)
    }

    fn h632(x: f32) -> f32 {
        h631(x)
    }

    fn h633(x: f32) -> f32 {
        h632(x)
    }

    fn h634(x: f32) -> f32 {
        h633(x)
    }

    fn h635(x: f32) -> f32 {
        h634(x)
    }

    fn h636(x: f32) -> f32 {
        h635(x)
    }

    fn h637(x: f32) -> f32 {
        h636(x)
    }

    fn h638(x: f32) -> f32 {
        h637(x)
    }

    fn h639(x: f32) -> f32 {
        h638(x)
    }

    fn h640(x: f32) -> f32 {
        h639(x)
    }

    fn h641(x: f32) -> f32 {
        h640(x)
    }

    fn h642(x: f32) -> f32 {
        h641(x)
    }

    fn h643(x: f32) -> f32 {
        h642(x)
    }

    fn h644(x: f32) -> f32 {
        h643(x)
    }

    fn h645(x: f32) -> f32 {
        h644(x)
    }

    fn h646(x: f32) -> f32 {
        h645(x)
    }

    fn h647(x: f32) -> f32 {
        h646(x)
    }

    fn h648(x: f32) -> f32 {
        h647(x)
    }

    fn h649(x: f32) -> f32 {
        h648(x)
    }

    fn h650(x: f32) -> f32 {
        h649(x)
    }

    fn h651(x: f32) -> f32 {
        h650(x)
    }

    fn h652(x: f32) -> f32 {
        h651(x)
    }

    fn h653(x: f32) -> f32 {
        h652(x)
    }

    fn h654(x: f32) -> f32 {
        h653(x)
    }

    fn h655(x: f32) -> f32 {
        h654(x)
    }

    fn h656(x: f32) -> f32 {
        h655(x)
    }

    fn h657(x: f32) -> f32 {
        h656(x)
    }

    fn h658(x: f32) -> f32 {
        h657(x)
    }

    fn h659(x: f32) -> f32 {
        h658(x)
    }

    fn h660(x: f32) -> f32 {
        h659(x)
    }

    fn h661(x: f32) -> f32 {
        h660(x)
    }

    fn h662(x: f32) -> f32 {
        h661(x)
    }

    fn h663(x: f32) -> f32 {
        h662(x)
    }

    fn h664(x: f32) -> f32 {
        h663(x)
    }

    fn h665(x: f32) -> f32 {
        h664(x)
    }

    fn h666(x: f32) -> f32 {
        h665(x)
    }

    fn h667(x: f32) -> f32 {
        h666(x)
    }

    fn h668(x: f32) -> f32 {
        h667(x)
    }

    fn h669(x: f32) -> f32 {
        h668(x)
    }

    fn h670(x: f32) -> f32 {
        h669(x)
    }

    fn h671(x: f32) -> f32 {
        h670(x)
    }

    fn h672(x: f32) -> f32 {
        h671(x)
    }

    fn h673(x: f32) -> f32 {
        h672(x)
    }

    fn h674(x: f32) -> f32 {
        h673(x)
    }

    fn h675(x: f32) -> f32 {
        h674(x)
    }

    fn h676(x: f32) -> f32 {
        h675(x)
    }

    fn h677(x: f32) -> f32 {
        h676(x)
    }

    fn h678(x: f32) -> f32 {
        h677(x)
    }

    fn h679(x: f32) -> f32 {
        h678(x)
    }

    fn h680(x: f32) -> f32 {
        h679(x)
    }

    fn h681(x: f32) -> f32 {
        h680(x)
    }

    fn h682(x: f32) -> f32 {
        h681(x)
    }

    fn h683(x: f32) -> f32 {
        h682(x)
    }

    fn h684(x: f32) -> f32 {
        h683(x)
    }

    fn h685(x: f32) -> f32 {
        h684(x)
    }

    fn h686(x: f32) -> f32 {
        h685(x)
    }

    fn h687(x: f32) -> f32 {
        h686(x)
    }

    fn h688(x: f32) -> f32 {
        h687(x)
    }

    fn h689(x: f32) -> f32 {
        h688(x)
    }

    fn h690(x: f32) -> f32 {
        h689(x)
    }

    fn h691(x: f32) -> f32 {
        h690(x)
    }

    fn h692(x: f32) -> f32 {
        h691(x)
    }

    fn h693(x: f32) -> f32 {
        h692(x)
    }

    fn h694(x: f32) -> f32 {
        h693(x)
    }

    fn h695(x: f32) -> f32 {
        h694(x)
    }

    fn h696(x: f32) -> f32 {
        h695(x)
    }

    fn h697(x: f32) -> f32 {
        h696(x)
    }

    fn h698(x: f32) -> f32 {
        h697(x)
    }

    fn h699(x: f32) -> f32 {
        h698(x)
    }

    fn h700(x: f32) -> f32 {
        h699(x)
    }

    fn h701(x: f32) -> f32 {
        h700(x)
    }

    fn h702(x: f32) -> f32 {
        h701(x)
    }

    fn h703(x: f32) -> f32 {
        h702(x)
    }

    fn h704(x: f32) -> f32 {
        h703(x)
    }

    fn h705(x: f32) -> f32 {
        h704(x)
    }

    fn h706(x: f32) -> f32 {
        h705(x)
    }

    fn h707(x: f32) -> f32 {
        h706(x)
    }

    fn h708(x: f32) -> f32 {
        h707(x)
    }

    fn h709(x: f32) -> f32 {
        h708(x)
    }

    fn h710(x: f32) -> f32 {
        h709(x)
    }

    fn h711(x: f32) -> f32 {
        h710(x)
    }

    fn h712(x: f32) -> f32 {
        h711(x)
    }

    fn h713(x: f32) -> f32 {
        h712(x)
    }

    fn h714(x: f32) -> f32 {
        h713(x)
    }

    fn h715(x: f32) -> f32 {
        h714(x)
    }

    fn h716(x: f32) -> f32 {
        h715(x)
    }

    fn h717(x: f32) -> f32 {
        h716(x)
    }

    fn h718(x: f32) -> f32 {
        h717(x)
    }

    fn h719(x: f32) -> f32 {
        h718(x)
    }

    fn h720(x: f32) -> f32 {
        h719(x)
    }

    fn h721(x: f32) -> f32 {
        h720(x)
    }

    fn h722(x: f32) -> f32 {
        h721(x)
    }

    fn h723(x: f32) -> f32 {
        h722(x)
    }

    fn h724(x: f32) -> f32 {
        h723(x)
    }

    fn h725(x: f32) -> f32 {
        h724(x)
    }

    fn h726(x: f32) -> f32 {
        h725(x)
    }

    fn h727(x: f32) -> f32 {
        h726(x)
    }

    fn h728(x: f32) -> f32 {
        h727(x)
    }

    fn h729(x: f32) -> f32 {
        h728(x)
    }

    fn h730(x: f32) -> f32 {
        h729(x)
    }

    fn h731(x: f32) -> f32 {
        h730(x)
    }

    fn h732(x: f32) -> f32 {
        h731(x)
    }

    fn h733(x: f32) -> f32 {
        h732(x)
    }

    fn h734(x: f32) -> f32 {
        h733(x)
    }

    fn h735(x: f32) -> f32 {
        h734(x)
    }

    fn h736(x: f32) -> f32 {
        h735(x)
    }

    fn h737(x: f32) -> f32 {
        h736(x)
    }

    fn h738(x: f32) -> f32 {
        h737(x)
    }

    fn h739(x: f32) -> f32 {
        h738(x)
    }

    fn h740(x: f32) -> f32 {
        h739(x)
    }

    fn h741(x: f32) -> f32 {
        h740(x)
    }

    fn h742(x: f32) -> f32 {
        h741(x)
    }

    fn h743(x: f32) -> f32 {
        h742(x)
    }

    fn h744(x: f32) -> f32 {
        h743(x)
    }

    fn h745(x: f32) -> f32 {
        h744(x)
    }

    fn h746(x: f32) -> f32 {
        h745(x)
    }

    fn h747(x: f32) -> f32 {
        h746(x)
    }

    fn h748(x: f32) -> f32 {
        h747(x)
    }

    fn h749(x: f32) -> f32 {
        h748(x)
    }

    fn h750(x: f32) -> f32 {
        h749(x)
    }

    fn h751(x: f32) -> f32 {
        h750(x)
    }

    fn h752(x: f32) -> f32 {
        h751(x)
    }

    fn h753(x: f32) -> f32 {
        h752(x)
    }

    fn h754(x: f32) -> f32 {
        h753(x)
    }

    fn h755(x: f32) -> f32 {
        h754(x)
    }

    fn h756(x: f32) -> f32 {
        h755(x)
    }

    fn h757(x: f32) -> f32 {
        h756(x)
    }

    fn h758(x: f32) -> f32 {
        h757(x)
    }

    fn h759(x: f32) -> f32 {
        h758(x)
    }

    fn h760(x: f32) -> f32 {
        h759(x)
    }

    fn h761(x: f32) -> f32 {
        h760(x)
    }

    fn h762(x: f32) -> f32 {
        h761(x)
    }

    fn h763(x: f32) -> f32 {
        h762(x)
    }

    fn h764(x: f32) -> f32 {
        h763(x)
    }

    fn h765(x: f32) -> f32 {
        h764(x)
    }

    fn h766(x: f32) -> f32 {
        h765(x)
    }

    fn h767(x: f32) -> f32 {
        h766(x)
    }

    fn h768(x: f32) -> f32 {
        h767(x)
    }

    fn h769(x: f32) -> f32 {
        h768(x)
    }

    fn h770(x: f32) -> f32 {
        h769(x)
    }

    fn h771(x: f32) -> f32 {
        h770(x)
    }

    fn h772(x: f32) -> f32 {
        h771(x)
    }

    fn h773(x: f32) -> f32 {
        h772(x)
    }

    fn h774(x: f32) -> f32 {
        h773(x)
    }

    fn h775(x: f32) -> f32 {
        h774(x)
    }

    fn h776(x: f32) -> f32 {
        h775(x)
    }

    fn h777(x: f32) -> f32 {
        h776(x)
    }

    fn h778(x: f32) -> f32 {
        h777(x)
    }

    fn h779(x: f32) -> f32 {
        h778(x)
    }

    fn h780(x: f32) -> f32 {
        h779(x)
    }

    fn h781(x: f32) -> f32 {
        h780(x)
    }

    fn h782(x: f32) -> f32 {
        h781(x)
    }

    fn h783(x: f32) -> f32 {
        h782(x)
    }

    fn h784(x: f32) -> f32 {
        h783(x)
    }

    fn h785(x: f32) -> f32 {
        h784(x)
    }

    fn h786(x: f32) -> f32 {
        h785(x)
    }

    fn h787(x: f32) -> f32 {
        h786(x)
    }

    fn h788(x: f32) -> f32 {
        h787(x)
    }

    fn h789(x: f32) -> f32 {
        h788(x)
    }

    fn h790(x: f32) -> f32 {
        h789(x)
    }

    fn h791(x: f32) -> f32 {
        h790(x)
    }

    fn h792(x: f32) -> f32 {
        h791(x)
    }

    fn h793(x: f32) -> f32 {
        h792(x)
    }

    fn h794(x: f32) -> f32 {
        h793(x)
    }

    fn h795(x: f32) -> f32 {
        h794(x)
    }

    fn h796(x: f32) -> f32 {
        h795(x)
    }

    fn h797(x: f32) -> f32 {
        h796(x)
    }

    fn h798(x: f32) -> f32 {
        h797(x)
    }

    fn h799(x: f32) -> f32 {
        h798(x)
    }

    fn h800(x: f32) -> f32 {
        h799(x)
    }

    fn h801(x: f32) -> f32 {
        h800(x)
    }

    fn h802(x: f32) -> f32 {
        h801(x)
    }

    fn h803(x: f32) -> f32 {
        h802(x)
    }

    fn h804(x: f32) -> f32 {
        h803(x)
    }

    fn h805(x: f32) -> f32 {
        h804(x)
    }

    fn h806(x: f32) -> f32 {
        h805(x)
    }

    fn h807(x: f32) -> f32 {
        h806(x)
    }

    fn h808(x: f32) -> f32 {
        h807(x)
    }

    fn h809(x: f32) -> f32 {
        h808(x)
    }

    fn h810(x: f32) -> f32 {
        h809(x)
    }

    fn h811(x: f32) -> f32 {
        h810(x)
    }

    fn h812(x: f32) -> f32 {
        h811(x)
    }

    fn h813(x: f32) -> f32 {
        h812(x)
    }

    fn h814(x: f32) -> f32 {
        h813(x)
    }

    fn h815(x: f32) -> f32 {
        h814(x)
    }

    fn h816(x: f32) -> f32 {
        h815(x)
    }

    fn h817(x: f32) -> f32 {
        h816(x)
    }

    fn h818(x: f32) -> f32 {
        h817(x)
    }

    fn h819(x: f32) -> f32 {
        h818(x)
    }

    fn h820(x: f32) -> f32 {
        h819(x)
    }

    fn h821(x: f32) -> f32 {
        h820(x)
    }

    fn h822(x: f32) -> f32 {
        h821(x)
    }

    fn h823(x: f32) -> f32 {
        h822(x)
    }

    fn h824(x: f32) -> f32 {
        h823(x)
    }

    fn h825(x: f32) -> f32 {
        h824(x)
    }

    fn h826(x: f32) -> f32 {
        h825(x)
    }

    fn h827(x: f32) -> f32 {
        h826(x)
    }

    fn h828(x: f32) -> f32 {
        h827(x)
    }

    fn h829(x: f32) -> f32 {
        h828(x)
    }

    fn h830(x: f32) -> f32 {
        h829(x)
    }

    fn h831(x: f32) -> f32 {
        h830(x)
    }

    fn h832(x: f32) -> f32 {
        h831(x)
    }

    fn h833(x: f32) -> f32 {
        h832(x)
    }

    fn h834(x: f32) -> f32 {
        h833(x)
    }

    fn h835(x: f32) -> f32 {
        h834(x)
    }

    fn h836(x: f32) -> f32 {
        h835(x)
    }

    fn h837(x: f32) -> f32 {
        h836(x)
    }

    fn h838(x: f32) -> f32 {
        h837(x)
    }

    fn h839(x: f32) -> f32 {
        h838(x)
    }

    fn h840(x: f32) -> f32 {
        h839(x)
    }

    fn h841(x: f32) -> f32 {
        h840(x)
    }

    fn h842(x: f32) -> f32 {
        h841(x)
    }

    fn h843(x: f32) -> f32 {
        h842(x)
    }

    fn h844(x: f32) -> f32 {
        h843(x)
    }

    fn h845(x: f32) -> f32 {
        h844(x)
    }

    fn h846(x: f32) -> f32 {
        h845(x)
    }

    fn h847(x: f32) -> f32 {
        h846(x)
    }

    fn h848(x: f32) -> f32 {
        h847(x)
    }

    fn h849(x: f32) -> f32 {
        h848(x)
    }

    fn h850(x: f32) -> f32 {
        h849(x)
    }

    fn h851(x: f32) -> f32 {
        h850(x)
    }

    fn h852(x: f32) -> f32 {
        h851(x)
    }

    fn h853(x: f32) -> f32 {
        h852(x)
    }

    fn h854(x: f32) -> f32 {
        h853(x)
    }

    fn h855(x: f32) -> f32 {
        h854(x)
    }

    fn h856(x: f32) -> f32 {
        h855(x)
    }

    fn h857(x: f32) -> f32 {
        h856(x)
    }

    fn h858(x: f32) -> f32 {
        h857(x)
    }

    fn h859(x: f32) -> f32 {
        h858(x)
    }

    fn h860(x: f32) -> f32 {
        h859(x)
    }

    fn h861(x: f32) -> f32 {
        h860(x)
    }

    fn h862(x: f32) -> f32 {
        h861(x)
    }

    fn h863(x: f32) -> f32 {
        h862(x)
    }

    fn h864(x: f32) -> f32 {
        h863(x)
    }

    fn h865(x: f32) -> f32 {
        h864(x)
    }

    fn h866(x: f32) -> f32 {
        h865(x)
    }

    fn h867(x: f32) -> f32 {
        h866(x)
    }

    fn h868(x: f32) -> f32 {
        h867(x)
    }

    fn h869(x: f32) -> f32 {
        h868(x)
    }

    fn h870(x: f32) -> f32 {
        h869(x)
    }

    fn h871(x: f32) -> f32 {
        h870(x)
    }

    fn h872(x: f32) -> f32 {
        h871(x)
    }

    fn h873(x: f32) -> f32 {
        h872(x)
    }

    fn h874(x: f32) -> f32 {
        h873(x)
    }

    fn h875(x: f32) -> f32 {
        h874(x)
    }

    fn h876(x: f32) -> f32 {
        h875(x)
    }

    fn h877(x: f32) -> f32 {
        h876(x)
    }

    fn h878(x: f32) -> f32 {
        h877(x)
    }

    fn h879(x: f32) -> f32 {
        h878(x)
    }

    fn h880(x: f32) -> f32 {
        h879(x)
    }

    fn h881(x: f32) -> f32 {
        h880(x)
    }

    fn h882(x: f32) -> f32 {
        h881(x)
    }

    fn h883(x: f32) -> f32 {
        h882(x)
    }

    fn h884(x: f32) -> f32 {
        h883(x)
    }

    fn h885(x: f32) -> f32 {
        h884(x)
    }

    fn h886(x: f32) -> f32 {
        h885(x)
    }

    fn h887(x: f32) -> f32 {
        h886(x)
    }

    fn h888(x: f32) -> f32 {
        h887(x)
    }

    fn h889(x: f32) -> f32 {
        h888(x)
    }

    fn h890(x: f32) -> f32 {
        h889(x)
    }

    fn h891(x: f32) -> f32 {
        h890(x)
    }

    fn h892(x: f32) -> f32 {
        h891(x)
    }

    fn h893(x: f32) -> f32 {
        h892(x)
    }

    fn h894(x: f32) -> f32 {
        h893(x)
    }

    fn h895(x: f32) -> f32 {
        h894(x)
    }

    fn h896(x: f32) -> f32 {
        h895(x)
    }

    fn h897(x: f32) -> f32 {
        h896(x)
    }

    fn h898(x: f32) -> f32 {
        h897(x)
    }

    fn h899(x: f32) -> f32 {
        h898(x)
    }

    fn h900(x: f32) -> f32 {
        h899(x)
    }

    fn h901(x: f32) -> f32 {
        h900(x)
    }

    fn h902(x: f32) -> f32 {
        h901(x)
    }

    fn h903(x: f32) -> f32 {
        h902(x)
    }

    fn h904(x: f32) -> f32 {
        h903(x)
    }

    fn h905(x: f32) -> f32 {
        h904(x)
    }

    fn h906(x: f32) -> f32 {
        h905(x)
    }

    fn h907(x: f32) -> f32 {
        h906(x)
    }

    fn h908(x: f32) -> f32 {
        h907(x)
    }

    fn h909(x: f32) -> f32 {
        h908(x)
    }

    fn h910(x: f32) -> f32 {
        h909(x)
    }

    fn h911(x: f32) -> f32 {
        h910(x)
    }

    fn h912(x: f32) -> f32 {
        h911(x)
    }

    fn h913(x: f32) -> f32 {
        h912(x)
    }

    fn h914(x: f32) -> f32 {
        h913(x)
    }

    fn h915(x: f32) -> f32 {
        h914(x)
    }

    fn h916(x: f32) -> f32 {
        h915(x)
    }

    fn h917(x: f32) -> f32 {
        h916(x)
    }

    fn h918(x: f32) -> f32 {
        h917(x)
    }

    fn h919(x: f32) -> f32 {
        h918(x)
    }

    fn h920(x: f32) -> f32 {
        h919(x)
    }

    fn h921(x: f32) -> f32 {
        h920(x)
    }

    fn h922(x: f32) -> f32 {
        h921(x)
    }

    fn h923(x: f32) -> f32 {
        h922(x)
    }

    fn h924(x: f32) -> f32 {
        h923(x)
    }

    fn h925(x: f32) -> f32 {
        h924(x)
    }

    fn h926(x: f32) -> f32 {
        h925(x)
    }

    fn h927(x: f32) -> f32 {
        h926(x)
    }

    fn h928(x: f32) -> f32 {
        h927(x)
    }

    fn h929(x: f32) -> f32 {
        h928(x)
    }

    fn h930(x: f32) -> f32 {
        h929(x)
    }

    fn h931(x: f32) -> f32 {
        h930(x)
    }

    fn h932(x: f32) -> f32 {
        h931(x)
    }

    fn h933(x: f32) -> f32 {
        h932(x)
    }

    fn h934(x: f32) -> f32 {
        h933(x)
    }

    fn h935(x: f32) -> f32 {
        h934(x)
    }

    fn h936(x: f32) -> f32 {
        h935(x)
    }

    fn h937(x: f32) -> f32 {
        h936(x)
    }

    fn h938(x: f32) -> f32 {
        h937(x)
    }

    fn h939(x: f32) -> f32 {
        h938(x)
    }

    fn h940(x: f32) -> f32 {
        h939(x)
    }

    fn h941(x: f32) -> f32 {
        h940(x)
    }

    fn h942(x: f32) -> f32 {
        h941(x)
    }

    fn h943(x: f32) -> f32 {
        h942(x)
    }

    fn h944(x: f32) -> f32 {
        h943(x)
    }

    fn h945(x: f32) -> f32 {
        h944(x)
    }

    fn h946(x: f32) -> f32 {
        h945(x)
    }

    fn h947(x: f32) -> f32 {
        h946(x)
    }

    fn h948(x: f32) -> f32 {
        h947(x)
    }

    fn h949(x: f32) -> f32 {
        h948(x)
    }

    fn h950(x: f32) -> f32 {
        h949(x)
    }

    fn h951(x: f32) -> f32 {
        h950(x)
    }

    fn h952(x: f32) -> f32 {
        h951(x)
    }

    fn h953(x: f32) -> f32 {
        h952(x)
    }

    fn h954(x: f32) -> f32 {
        h953(x)
    }

    fn h955(x: f32) -> f32 {
        h954(x)
    }

    fn h956(x: f32) -> f32 {
        h955(x)
    }

    fn h957(x: f32) -> f32 {
        h956(x)
    }

    fn h958(x: f32) -> f32 {
        h957(x)
    }

    fn h959(x: f32) -> f32 {
        h958(x)
    }

    fn h960(x: f32) -> f32 {
        h959(x)
    }

    fn h961(x: f32) -> f32 {
        h960(x)
    }

    fn h962(x: f32) -> f32 {
        h961(x)
    }

    fn h963(x: f32) -> f32 {
        h962(x)
    }

    fn h964(x: f32) -> f32 {
        h963(x)
    }

    fn h965(x: f32) -> f32 {
        h964(x)
    }

    fn h966(x: f32) -> f32 {
        h965(x)
    }

    fn h967(x: f32) -> f32 {
        h966(x)
    }

    fn h968(x: f32) -> f32 {
        h967(x)
    }

    fn h969(x: f32) -> f32 {
        h968(x)
    }

    fn h970(x: f32) -> f32 {
        h969(x)
    }

    fn h971(x: f32) -> f32 {
        h970(x)
    }

    fn h972(x: f32) -> f32 {
        h971(x)
    }

    fn h973(x: f32) -> f32 {
        h972(x)
    }

    fn h974(x: f32) -> f32 {
        h973(x)
    }

    fn h975(x: f32) -> f32 {
        h974(x)
    }

    fn h976(x: f32) -> f32 {
        h975(x)
    }

    fn h977(x: f32) -> f32 {
        h976(x)
    }

    fn h978(x: f32) -> f32 {
        h977(x)
    }

    fn h979(x: f32) -> f32 {
        h978(x)
    }

    fn h980(x: f32) -> f32 {
        h979(x)
    }

    fn h981(x: f32) -> f32 {
        h980(x)
    }

    fn h982(x: f32) -> f32 {
        h981(x)
    }

    fn h983(x: f32) -> f32 {
        h982(x)
    }

    fn h984(x: f32) -> f32 {
        h983(x)
    }

    fn h985(x: f32) -> f32 {
        h984(x)
    }

    fn h986(x: f32) -> f32 {
        h985(x)
    }

    fn h987(x: f32) -> f32 {
        h986(x)
    }

    fn h988(x: f32) -> f32 {
        h987(x)
    }

    fn h989(x: f32) -> f32 {
        h988(x)
    }

    fn h990(x: f32) -> f32 {
        h989(x)
    }

    fn h991(x: f32) -> f32 {
        h990(x)
    }

    fn h992(x: f32) -> f32 {
        h991(x)
    }

    fn h993(x: f32) -> f32 {
        h992(x)
    }

    fn h994(x: f32) -> f32 {
        h993(x)
    }

    fn h995(x: f32) -> f32 {
        h994(x)
    }

    fn h996(x: f32) -> f32 {
        h995(x)
    }

    fn h997(x: f32) -> f32 {
        h996(x)
    }

    fn h998(x: f32) -> f32 {
        h997(x)
    }

    fn h999(x: f32) -> f32 {
        h998(x)
    }

    #[sarek::kernel]
    pub fn deep(xs: &mut [f32]) {
        let i = global_thread_id();
        if i < xs.len() {
            xs[i] = h999(xs[i]);
        }
    }
}

fn main() {}
