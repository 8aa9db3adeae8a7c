package sample;

class Sample {
    // tag::outer[]
    void outer() {
        // tag::inner[]
        int inner = 1;
        // end::inner[]
    }
    // end::outer[]

    // tag::unclosed[]
    void unclosed() {}

    // end::early[]
    // tag::early[]

    // tag::twice[]
    // end::twice[]
    // tag::twice[]
    // end::twice[]

    // tag::empty[]

    // end::empty[]
}
