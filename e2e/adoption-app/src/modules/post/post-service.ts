export interface Post {
  id: number;
  title: string;
  authorId: number;
}

const posts: Post[] = [
  { id: 1, title: 'Notes on the Analytical Engine', authorId: 1 },
  { id: 2, title: 'Computing Machinery and Intelligence', authorId: 2 },
  { id: 3, title: 'On Computable Numbers', authorId: 2 },
];

export default class PostService {
  static listPosts(authorId?: number) {
    return authorId === undefined ? posts : posts.filter((post) => post.authorId === authorId);
  }

  static async *streamTitles() {
    for (const post of posts) yield { title: post.title };
  }
}
