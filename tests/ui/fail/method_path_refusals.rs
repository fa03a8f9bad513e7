#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct Counter {
        pub n: u32,
    }

    pub trait Tally {
        fn tally(&self) -> u32;
        fn reset_to(&mut self, v: u32);
    }

    impl Tally for Counter {
        fn tally(&self) -> u32 {
            self.n
        }

        fn reset_to(&mut self, v: u32) {
            self.n = v;
        }
    }

    #[sarek::kernel]
    pub fn by_trait_path_without_mut(cs: &mut [Counter]) {
        let i = global_thread_id();
        let mut c = cs[i];
        Tally::reset_to(c, 3);
        cs[i] = c;
    }

    #[sarek::kernel]
    pub fn on_a_temporary(cs: &mut [Counter]) {
        let i = global_thread_id();
        Tally::reset_to(&mut Counter { n: 1 }, 3);
        cs[i].n = 0;
    }

    #[sarek::kernel]
    pub fn on_a_scalar(out: &mut [u32]) {
        let i = global_thread_id();
        out[i] = Tally::tally(&out[i]);
    }

    #[sarek::kernel]
    pub fn without_receiver(out: &mut [u32]) {
        let i = global_thread_id();
        out[i] = Tally::tally();
    }
}

fn main() {}
